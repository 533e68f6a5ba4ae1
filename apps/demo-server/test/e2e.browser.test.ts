import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromiumOrSkip, selectorPageFrame } from '@service-sdk/testkit'
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pattern, startTestDemo } from './helpers.ts'

// End to end: the running demo (server, simulator, the built page) driven in real Chromium, as a
// newcomer would click through it. Waits are on UI states, never on time.

const WEB_DIST = resolve(import.meta.dirname, '../../demo-web/dist/index.html')
const SHOTS = resolve(import.meta.dirname, '../../demo-web/test-results/e2e')
const ACME_BRAND = '1753946835010000005'

const chromium = chromiumOrSkip()
let demo: Awaited<ReturnType<typeof startTestDemo>>
let browser: Browser
let context: BrowserContext
let page: Page
const pageErrors: string[] = []

beforeAll(async () => {
  if (!chromium.available) return
  if (!existsSync(WEB_DIST))
    throw new Error('The demo page is not built: run `pnpm build` first (the root test command does).')
  mkdirSync(SHOTS, { recursive: true })
  demo = await startTestDemo()
  browser = await chromium.launch()
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  page = await context.newPage()
  // Fail a wait well before the test's own timeout, with Playwright's description of what it awaited.
  page.setDefaultTimeout(20_000)
  page.on('pageerror', (error) => pageErrors.push(String(error)))
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      pageErrors.push(message.text())
    }
  })
})

afterAll(async () => {
  await browser?.close()
  await demo?.stop()
})

/** A page of the demo, through its main navigation. */
const go = (name: string) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${name}`) })
    .click()
const textOf = async (locator: Locator) => (await locator.textContent()) ?? ''
const attribute = (locator: Locator, name: string) => locator.getAttribute(name)

/** A full-page screenshot, from the top (the sticky sidebar would be drawn where it was scrolled to). */
async function shot(name: string, target: Page = page) {
  await target.evaluate(() => window.scrollTo(0, 0))
  await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

/** The selector page inside the SDK's dialog, once its folder tree is there. */
const selectorFrame = (): Promise<Frame> => selectorPageFrame(page, 'dialog iframe')

const chooseFolder = (frame: Frame, name: string) =>
  frame.getByRole('treeitem', { name, exact: true }).locator(':scope > .row').click()

describe.skipIf(!chromium.available)('the demo in Chromium', { timeout: 60_000 }, () => {
  test('overview: the connection and the subscriptions', async () => {
    await page.goto(demo.url)
    await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    await page.getByText('Live events connected').waitFor()
    await expect.poll(() => page.locator('.facts .badge-success').count()).toBeGreaterThanOrEqual(2)
    await shot('01-overview')
  })

  test('team: lists members, creates one, shows the whitelist refusal inline, invites', async () => {
    await go('Team')
    const members = page.getByRole('region', { name: 'Team members' })
    await members.getByRole('cell', { name: 'ada@acme.com' }).waitFor()
    await expect.poll(() => members.getByRole('row').count()).toBe(4) // header + Ada, Grace, the contractor

    const create = page.getByRole('region', { name: 'Create a user' })
    await create.getByLabel('Email address').fill('newcomer@acme.com')
    await create.getByRole('button', { name: 'Create user' }).click()
    await create.getByText('Created').waitFor()
    await members.getByRole('cell', { name: 'newcomer@acme.com' }).waitFor()

    await create.getByLabel('Email address').fill('someone@gmail.com')
    await create.getByRole('button', { name: 'Create user' }).click()
    const refusal = create.getByRole('alert')
    await refusal.waitFor()
    await expect.poll(() => textOf(refusal)).toContain('not on the team’s whitelist')
    await expect
      .poll(() => textOf(refusal))
      .toContain("'gmail.com' is not in the team's verified domain whitelist")
    await expect.poll(() => attribute(create.getByLabel('Email address'), 'aria-invalid')).toBe('true')
    await expect
      .poll(() => textOf(create.locator('.field-error:not([hidden])')))
      .toBe('gmail.com is not on the team’s whitelist.')
    await shot('02-team-whitelist-refusal')

    const invite = page.getByRole('region', { name: 'Invite a registered user' })
    await invite.getByLabel('Email address').fill('linus@acme.com')
    await invite.getByRole('button', { name: 'Send invitation' }).click()
    await invite.getByText('Invited').waitFor()
    await members.getByRole('cell', { name: 'linus@acme.com' }).waitFor()
    await shot('03-team')
  })

  test('team: a create, then a failed invite (and the reverse): no notification covers another', async () => {
    await page.goto(demo.url)
    await go('Team')
    const create = page.getByRole('region', { name: 'Create a user' })
    const invite = page.getByRole('region', { name: 'Invite a registered user' })
    /** The boxes of every toast and every form outcome on screen. */
    const notifications = () =>
      page.locator('.toast:not(.leaving), .form-result > *').evaluateAll((elements) =>
        elements.map((element) => {
          const { x, y, width, height } = element.getBoundingClientRect()
          return { text: element.textContent ?? '', x, y, width, height }
        }),
      )
    type Box = Awaited<ReturnType<typeof notifications>>[number]
    const intersect = (a: Box, b: Box) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    const overlapping = async () => {
      const boxes = await notifications()
      return boxes.flatMap((a, i) =>
        boxes
          .slice(i + 1)
          .filter((b) => intersect(a, b))
          .map((b) => [a.text, b.text]),
      )
    }

    await create.getByLabel('Email address').fill('toasted@acme.com')
    await create.getByRole('button', { name: 'Create user' }).click()
    await create.getByText('Created').waitFor()
    await invite.getByLabel('Email address').fill('nobody-registered@acme.com')
    await invite.getByRole('button', { name: 'Send invitation' }).click()
    await invite.getByRole('alert').waitFor()
    await shot('03b-team-create-then-failed-invite')
    expect(await overlapping()).toEqual([])

    await create.getByLabel('Email address').fill('toasted-again@acme.com')
    await create.getByRole('button', { name: 'Create user' }).click()
    await create.getByText('Created toasted-again').waitFor()
    expect(await invite.getByRole('alert').count()).toBe(1)
    expect(await overlapping()).toEqual([])
  })

  test('team: "open as member" embeds the impersonation login in an iframe', async () => {
    await page.getByRole('button', { name: 'Open the application as Grace Hopper' }).click()
    const dialog = page.getByRole('dialog', { name: 'Signed in as Grace Hopper' })
    await dialog.waitFor()
    const frameElement = dialog.locator('iframe')
    await expect.poll(() => attribute(frameElement, 'sandbox')).toMatch(/allow-scripts/)
    await expect.poll(() => attribute(frameElement, 'referrerpolicy')).toBe('no-referrer')
    const frame = page.frameLocator('dialog iframe')
    await expect.poll(() => textOf(frame.getByTestId('signed-in'))).toBe('Signed in as Grace Hopper')
    await shot('04-impersonation')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'hidden' })
  })

  test('spaces: roles, validity and whether each can be written to', async () => {
    await go('Spaces')
    const table = page.getByRole('region', { name: 'Spaces' })
    const acme = table.locator('tr', { hasText: 'Acme Design' })
    await acme.waitFor()
    await expect.poll(() => textOf(acme)).toContain('Yes')
    await expect.poll(() => textOf(table.locator('tr', { hasText: 'Umbrella Archive' }))).toContain('Expired')
    await expect.poll(() => textOf(table.locator('tr', { hasText: 'view-only' }))).toContain('No')
    await page.getByText(/You can upload into \d+ of \d+ spaces/).waitFor()
    await shot('05-spaces')
  })

  test('upload flow 2: pick a folder, upload through the server with progress, open the saved asset', async () => {
    await go('Upload')
    const flow = page.getByRole('region', { name: 'Flow 2 · Upload through your server' })
    await flow.getByRole('button', { name: 'Choose a folder…' }).click()
    const frame = await selectorFrame()
    await chooseFolder(frame, 'Acme Brand assets')
    await frame.getByRole('button', { name: 'Confirm' }).click()
    await expect.poll(() => textOf(flow.locator('.chosen-folder'))).toContain('Acme Design')

    const big = pattern(3 * 1024 * 1024 + 17)
    await flow.getByLabel('Files to upload through the server').setInputFiles([
      { name: 'brand-guide.pdf', mimeType: 'application/pdf', buffer: Buffer.from(big) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello from the demo') },
    ])
    await flow.getByRole('button', { name: 'Upload 2 files' }).click()
    const rows = flow.locator('.upload-item')
    await expect.poll(() => rows.count()).toBe(2)
    await expect.poll(() => flow.locator('.upload-item[data-state="done"]').count()).toBe(2)
    await expect.poll(() => textOf(rows.first())).toContain('Saved')
    const link = rows.first().getByRole('link', { name: 'Open asset' })
    const href = await link.getAttribute('href')
    expect(href).toMatch(/\/files\/\d+\/brand-guide\.pdf$/)
    const served = new Uint8Array(await (await fetch(href!)).arrayBuffer())
    expect(served.length).toBe(big.length)
    expect(Buffer.from(served).equals(Buffer.from(big))).toBe(true)
    await shot('06-upload-flow-2')
  })

  test('upload flow 2: cancel stops the upload on the server; nothing is saved', async () => {
    const sim = demo.simulator!
    const before = sim.control.snapshot().materials.length
    // Slow storage, so that there is time to press Cancel.
    const slow = sim.control.faults.inject({
      match: { target: 'oss' },
      action: { type: 'latency', ms: 60_000 },
      times: Infinity,
    })
    try {
      const flow = page.getByRole('region', { name: 'Flow 2 · Upload through your server' })
      await flow.getByLabel('Files to upload through the server').setInputFiles([
        {
          name: 'too-slow.bin',
          mimeType: 'application/octet-stream',
          buffer: Buffer.from(pattern(512 * 1024)),
        },
      ])
      await flow.getByRole('button', { name: 'Upload', exact: true }).click()
      const row = flow.locator('.upload-item', { hasText: 'too-slow.bin' })
      await row.and(page.locator('[data-state="running"]')).waitFor()
      await expect.poll(() => slow.hits).toBeGreaterThan(0)
      await row.getByRole('button', { name: 'Cancel too-slow.bin' }).click()
      await expect.poll(() => attribute(row, 'data-state')).toBe('cancelled')
      await expect.poll(() => textOf(row)).toContain('Cancelled')
      await shot('07-upload-cancelled')
    } finally {
      slow.remove()
    }
    expect(sim.control.snapshot().materials.length).toBe(before)
  })

  test('upload flow 1: the selector uploads the files itself', async () => {
    const flow = page.getByRole('region', { name: 'Flow 1 · The selector uploads' })
    await flow
      .getByLabel('Files for the selector to upload')
      .setInputFiles([{ name: 'campaign.png', mimeType: 'image/png', buffer: Buffer.from(pattern(2048)) }])
    await flow.getByLabel('Related link').fill('https://example.com/post/42')
    await flow.getByRole('button', { name: 'Choose a folder and upload' }).click()
    const frame = await selectorFrame()
    await frame.locator('.file').first().waitFor()
    await chooseFolder(frame, 'Acme Campaigns')
    await frame.getByRole('button', { name: 'Upload' }).click()
    await flow.getByText('The selector uploaded 1 file').waitFor()
    await expect.poll(() => textOf(flow)).toContain('Acme Design')
    const saved = demo.simulator!.control.snapshot().materials.find((m) => m.name === 'campaign')
    expect(saved).toMatchObject({ extension: 'png', size: 2048, link: 'https://example.com/post/42' })
    await shot('08-upload-flow-1')
  })

  test('events: the callbacks and asset events of both flows, live, filterable, with their JSON', async () => {
    await go('Events')
    const feed = page.getByRole('list', { name: 'Events, newest first' })
    // Flow 2 into Acme Brand assets: a folder callback naming both files, intake, added to folder.
    await feed.locator('[data-event-type="FOLDER_CONTENT_UPDATE"]', { hasText: 'brand-guide.pdf' }).waitFor()
    await feed
      .locator('[data-event-type="MATERIAL_ADDED_TO_FOLDER"]', { hasText: ACME_BRAND })
      .first()
      .waitFor()
    // Flow 1 into Acme Campaigns (watched from the start): its callback and intake events too.
    await feed.locator('[data-event-type="FOLDER_CONTENT_UPDATE"]', { hasText: 'campaign.png' }).waitFor()
    await expect
      .poll(() => feed.locator('[data-event-type="MATERIAL_INBOUND_COMPLETED"]').count())
      .toBeGreaterThanOrEqual(2)

    // A change made in the service while the page is open arrives live.
    const asset = demo.simulator!.control.snapshot().materials.find((m) => m.name === 'notes')!
    demo.simulator!.control.materials.delete([asset.id])
    await feed.locator('[data-event-type="MATERIAL_DELETED"]').waitFor()

    // Filters: hide folder callbacks.
    await page.getByRole('button', { name: /Folder content/ }).click()
    await expect
      .poll(() => attribute(page.getByRole('button', { name: /Folder content/ }), 'aria-pressed'))
      .toBe('false')
    await expect.poll(() => feed.locator('[data-event-type="FOLDER_CONTENT_UPDATE"]').count()).toBe(0)
    await feed.locator('[data-event-type="MATERIAL_INBOUND_COMPLETED"]').first().waitFor()

    // The JSON of an event.
    const deleted = feed.locator('[data-event-type="MATERIAL_DELETED"]')
    await deleted.locator('summary').click()
    const json = deleted.locator('pre.json')
    await json.waitFor()
    expect(JSON.parse((await json.textContent())!)).toMatchObject({
      eventType: 'MATERIAL_DELETED',
      payload: { materialIds: [asset.id], deleteAction: 'RECYCLE' },
    })
    await shot('09-events')
    await page.getByRole('button', { name: 'Show all' }).click()

    // The webhook inbox console, mounted behind the page's session: its figures here, the console
    // a click away; without the session it answers nothing.
    const inbox = page.getByRole('region', { name: 'Inbox' })
    const done = async () =>
      Number(((await inbox.locator('[data-inbox-status="done"]').textContent()) ?? '').replace(/\D/g, ''))
    await expect.poll(done).toBeGreaterThan(0)
    const [inboxPage] = await Promise.all([
      context.waitForEvent('page'),
      inbox.getByRole('link', { name: 'Open the inbox console' }).click(),
    ])
    await inboxPage.getByRole('heading', { name: 'Events, newest first' }).waitFor()
    expect(await inboxPage.locator('td.key a').count()).toBeGreaterThan(0)
    await inboxPage.close()
    expect((await fetch(`${demo.url}/inbox/`)).status).toBe(401)
    expect((await fetch(`${demo.url}/inbox/api/summary`)).status).toBe(401)
    await feed.locator('[data-event-type="FOLDER_CONTENT_UPDATE"]').first().waitFor()
  })

  test('a narrow screen: the same pages, laid out for a phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })
    try {
      const small = await phone.newPage()
      small.on('pageerror', (error) => pageErrors.push(String(error)))
      await small.goto(`${demo.url}/#/upload`)
      await small.getByRole('heading', { name: 'Upload', level: 1 }).waitFor()
      await shot('10-phone-upload', small)
      await small.goto(`${demo.url}/#/events`)
      await small.locator('[data-event-type]').first().waitFor()
      await shot('11-phone-events', small)
    } finally {
      await phone.close()
    }
  })

  test('no uncaught errors and no CSP violations in the page', () => {
    expect(pageErrors).toEqual([])
  })
})
