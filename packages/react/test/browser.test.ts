import { createHash, randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { chromiumOrSkip, selectorPageFrame } from '@service-sdk/testkit'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildPage } from './build-page.ts'
import { choose, confirmFolder, uploadThroughPicker } from './picker-steps.ts'
import { type Servers, startServers } from './servers.ts'

// The package's built files in a page built with Vite + @vitejs/plugin-react, in real Chromium,
// under StrictMode in React's development build. Three origins: the page on localhost, the
// upload proxy (@service-sdk/open/proxy on Hono) on 127.0.0.1, the simulator (its selector page,
// open API and object store) on its own ports.

const chromium = chromiumOrSkip()

let sim: RunningSimulator
let browser: Browser
let servers: Servers
let dist: string

const ACME_CAMPAIGNS = '1753946835010000001'
const ACME_BRAND = '1753946835010000005'
const MY_AUTUMN = '1753946835000000003'
const KiB = 1024

beforeAll(async () => {
  if (!chromium.available) return
  dist = await buildPage()
  sim = await startSimulator()
  servers = await startServers(dist, sim)
  browser = await chromium.launch()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await servers?.close()
  await sim?.stop()
  if (dist) rmSync(dist, { recursive: true, force: true })
})

/** The test page; an uncaught error in it fails the test, unless the test collects them itself. */
async function openPage(t: { onTestFinished(fn: () => unknown): void }, errors?: string[]): Promise<Page> {
  const context = await browser.newContext()
  t.onTestFinished(() => context.close())
  const page = await context.newPage()
  const uncaught = errors ?? []
  page.on('pageerror', (e) => uncaught.push(String(e)))
  if (!errors) t.onTestFinished(() => expect(uncaught).toEqual([]))
  const query = new URLSearchParams({ appUrl: sim.urls.app, proxyUrl: servers.proxyUrl })
  await page.goto(`${servers.page}/?${query}`)
  await page.waitForSelector('#files')
  return page
}

const json = async (page: Page, selector: string) => JSON.parse((await page.textContent(selector)) || 'null')
const leftovers = (page: Page) => page.evaluate(() => document.querySelectorAll('iframe, dialog').length)

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
async function servedHash(url: string): Promise<string> {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  return sha256(new Uint8Array(await response.arrayBuffer()))
}

/** Counts (and optionally slows) one object-store operation. */
function ossOp(op: string, ms = 0) {
  return sim.control.faults.inject({
    match: { target: 'oss', op },
    action: { type: 'latency', ms },
    times: Infinity,
  })
}

const row = (page: Page, name: string) => page.locator(`#uploads li[data-name="${name}"]`)
const status = (page: Page, name: string) => row(page, name).getAttribute('data-status')
const loaded = async (page: Page, name: string) => Number(await row(page, name).getAttribute('data-loaded'))

async function chooseFiles(page: Page, files: Array<{ name: string; bytes: Buffer }>) {
  await page.setInputFiles(
    '#files',
    files.map(({ name, bytes }) => ({ name, mimeType: 'application/octet-stream', buffer: bytes })),
  )
}

describe.skipIf(!chromium.available)('in Chromium, a Vite + React page under StrictMode', () => {
  test('useFolderPicker, flow 2: the button opens one modal page; clicking a folder sets picked and the choice', async (t) => {
    const page = await openPage(t)
    await page.click('#pick')
    const frame = await selectorPageFrame(page)
    expect(await page.evaluate(() => document.querySelector('iframe')?.closest('dialog')?.open)).toBe(true)
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
    expect(await json(page, '#picker')).toEqual({ status: 'open' })
    await confirmFolder(page, frame, 'Acme Campaigns', ACME_CAMPAIGNS)
    expect(await leftovers(page)).toBe(0)
    expect(await page.evaluate(() => [window.framesCreated, window.effectRuns])).toEqual([1, 2])
  })

  test('useFolderPicker, flow 1: the page uploads the files into the folder picked', async (t) => {
    const page = await openPage(t)
    await uploadThroughPicker(page, sim.control, ACME_BRAND)
    expect(await leftovers(page)).toBe(0)
  })

  test('useFolderPicker: close() takes the page down; pick() resolves null and the status is cancelled', async (t) => {
    const page = await openPage(t)
    const choice = page.evaluate(() => window.pick())
    await selectorPageFrame(page)
    await page.evaluate(() => window.closePicker())
    expect(await choice).toBeNull()
    expect(await json(page, '#picker')).toEqual({ status: 'cancelled' })
    expect(await leftovers(page)).toBe(0)
  })

  test('<FolderPicker inline>: StrictMode mounts it twice, one page opens, in its div; onChoice gets the folder', async (t) => {
    const page = await openPage(t)
    await page.evaluate(() => window.showPicker('inline'))
    const frame = await selectorPageFrame(page)
    expect(await page.evaluate(() => document.querySelectorAll('.inline-picker > iframe').length)).toBe(1)
    await choose(frame, 'My Campaigns')
    await choose(frame, '2026 Autumn')
    await frame.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForFunction(() => document.querySelector('#answer')?.textContent)
    expect(await json(page, '#answer')).toEqual({ choice: { folderId: MY_AUTUMN, orgId: '1' } })
    expect(await page.evaluate(() => window.framesCreated)).toBe(1)
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0)
  })

  test('<FolderPicker> (modal, flow 1): unmounting it while open takes the page down and calls nothing', async (t) => {
    const page = await openPage(t)
    const before = sim.control.snapshot().materials.length
    await page.evaluate(() => window.showPicker('modal', 1))
    const frame = await selectorPageFrame(page)
    await frame.locator('.file').nth(1).waitFor()
    await page.evaluate(() => window.showPicker('none'))
    await page.waitForFunction(() => document.querySelectorAll('iframe, dialog').length === 0)
    // Two frames later: any callback would have run.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await page.textContent('#answer')).toBe('')
    expect(await page.evaluate(() => window.framesCreated)).toBe(1)
    expect(sim.control.snapshot().materials.length).toBe(before)
  })

  test('<FolderPicker> without onError: a failure of the page is reported as an uncaught error, never dropped', async (t) => {
    const errors: string[] = []
    const page = await openPage(t, errors)
    await page.evaluate(() => window.showPicker('inline', 2, true))
    await expect.poll(() => errors, { timeout: 10_000 }).toEqual([expect.stringContaining('SelectorError')])
    expect(errors[0]).toMatch(/timeout|did not load|loaded/i)
    expect(await page.textContent('#answer')).toBe('')
  })

  test('useUploads: chosen files go up through the proxy, two at a time; each asset serves its exact bytes', async (t) => {
    const page = await openPage(t)
    const files = [
      { name: 'small.bin', bytes: randomBytes(40 * KiB) },
      { name: 'parts.bin', bytes: randomBytes(350 * KiB + 3) },
      { name: 'third.bin', bytes: randomBytes(120 * KiB) },
    ]
    await chooseFiles(page, files)
    await page.waitForFunction(
      () => document.querySelectorAll('#uploads li[data-status="done"]').length === 3,
    )
    for (const { name, bytes } of files) {
      const url = await row(page, name).getAttribute('data-url')
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
      expect(await servedHash(url!), name).toBe(sha256(bytes))
      expect(await loaded(page, name)).toBe(bytes.length)
    }
    const total = files.reduce((sum, f) => sum + f.bytes.length, 0)
    expect(await page.locator('#summary').getAttribute('data-loaded')).toBe(String(total))
    expect(await page.locator('#summary').getAttribute('data-total')).toBe(String(total))
  })

  test('useUploads: pause stops new parts until resume; abort discards an upload; the other completes intact', async (t) => {
    const page = await openPage(t)
    const parts = ossOp('UploadPart', 150)
    const aborts = ossOp('AbortMultipartUpload')
    t.onTestFinished(() => {
      parts.remove()
      aborts.remove()
    })
    const before = sim.control.snapshot().materials.length
    const keep = { name: 'keep.bin', bytes: randomBytes(1200 * KiB) }
    const drop = { name: 'drop.bin', bytes: randomBytes(1200 * KiB) }
    await chooseFiles(page, [keep, drop])
    await expect.poll(() => loaded(page, 'keep.bin'), { timeout: 20_000 }).toBeGreaterThan(0)
    // Resolves once no request of either upload is in flight.
    await page.evaluate(() => window.pauseUploads())
    expect([await status(page, 'keep.bin'), await status(page, 'drop.bin')]).toEqual(['paused', 'paused'])
    const sent = parts.hits
    const bytes = await loaded(page, 'keep.bin')
    expect(bytes).toBeLessThan(keep.bytes.length)
    await page.waitForTimeout(600)
    expect(parts.hits).toBe(sent)
    expect(await loaded(page, 'keep.bin')).toBe(bytes)

    await row(page, 'drop.bin').locator('[data-action="abort"]').click()
    await row(page, 'keep.bin').locator('[data-action="resume"]').click()
    await expect.poll(() => status(page, 'keep.bin'), { timeout: 30_000 }).toBe('done')
    expect(await status(page, 'drop.bin')).toBe('aborted')
    expect(await row(page, 'drop.bin').getAttribute('data-error')).toBe('AbortError')
    expect(aborts.hits).toBeGreaterThanOrEqual(1)
    expect(await servedHash((await row(page, 'keep.bin').getAttribute('data-url'))!)).toBe(sha256(keep.bytes))
    expect(
      sim.control
        .snapshot()
        .materials.slice(before)
        .map((m) => m.name),
    ).toEqual(['keep'])
  })

  test('useUploads: a failed upload shows its UploadError; retry continues it to the exact bytes', async (t) => {
    const page = await openPage(t)
    // Part 2 fails on its first attempt and on the one retry the page's client allows.
    const fault = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 2 },
      action: { type: 'status', status: 500 },
      times: 2,
    })
    t.onTestFinished(() => fault.remove())
    const file = { name: 'flaky.bin', bytes: randomBytes(300 * KiB) }
    await chooseFiles(page, [file])
    await expect.poll(() => status(page, 'flaky.bin'), { timeout: 20_000 }).toBe('failed')
    expect(await row(page, 'flaky.bin').getAttribute('data-error')).toBe('UploadError')
    expect(fault.hits).toBe(2)
    await row(page, 'flaky.bin').locator('[data-action="retry"]').click()
    await expect.poll(() => status(page, 'flaky.bin'), { timeout: 20_000 }).toBe('done')
    expect(await servedHash((await row(page, 'flaky.bin').getAttribute('data-url'))!)).toBe(
      sha256(file.bytes),
    )
  })

  test('useUpload: start() resolves with the asset; a start() while one runs aborts it (resolving undefined); so does abort()', async (t) => {
    const page = await openPage(t)
    const single = page.locator('#single-state')
    const resolved = async () => JSON.parse((await single.getAttribute('data-resolved')) ?? '[]') as string[]
    const choose = (name: string, bytes: Buffer) =>
      page.setInputFiles('#single', { name, mimeType: 'application/octet-stream', buffer: bytes })
    const started = () =>
      expect
        .poll(async () => Number(await single.getAttribute('data-loaded')), { timeout: 20_000 })
        .toBeGreaterThan(0)

    const first = randomBytes(150 * KiB)
    await choose('first.bin', first)
    await expect.poll(resolved, { timeout: 20_000 }).toHaveLength(1)
    const [url] = await resolved()
    expect(await single.getAttribute('data-status')).toBe('done')
    expect(await servedHash(url!)).toBe(sha256(first))

    const parts = ossOp('UploadPart', 150)
    t.onTestFinished(() => parts.remove())
    const before = sim.control.snapshot().materials.length
    await choose('slow.bin', randomBytes(1200 * KiB))
    await started()
    const next = randomBytes(60 * KiB)
    await choose('next.bin', next)
    await expect.poll(resolved, { timeout: 20_000 }).toHaveLength(3)
    const [, replaced, nextUrl] = await resolved()
    expect(replaced).toBe('undefined')
    expect(await servedHash(nextUrl!)).toBe(sha256(next))

    await choose('slow-again.bin', randomBytes(1200 * KiB))
    await started()
    await page.click('#single-abort')
    await expect.poll(resolved, { timeout: 20_000 }).toHaveLength(4)
    expect((await resolved())[3]).toBe('undefined')
    expect(await single.getAttribute('data-status')).toBe('aborted')
    expect(
      sim.control
        .snapshot()
        .materials.slice(before)
        .map((m) => m.name),
    ).toEqual(['next'])
  })

  test('useUploads: unmounting the component aborts its uploads; nothing is saved', async (t) => {
    const page = await openPage(t)
    const parts = ossOp('UploadPart', 150)
    const aborts = ossOp('AbortMultipartUpload')
    t.onTestFinished(() => {
      parts.remove()
      aborts.remove()
    })
    const before = sim.control.snapshot().materials.length
    await chooseFiles(page, [{ name: 'gone.bin', bytes: randomBytes(1200 * KiB) }])
    await expect.poll(() => loaded(page, 'gone.bin'), { timeout: 20_000 }).toBeGreaterThan(0)
    await page.evaluate(() => window.setUploadsMounted(false))
    await expect.poll(() => aborts.hits, { timeout: 20_000 }).toBe(1)
    const sent = parts.hits
    await page.waitForTimeout(600)
    expect(parts.hits).toBe(sent)
    expect(sim.control.snapshot().materials.length).toBe(before)
  })
})
