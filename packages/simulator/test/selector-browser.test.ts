import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromiumOrSkip } from '@service-sdk/testkit'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, type TestContext, test } from 'vitest'
import { type RunningSimulator, startSimulator } from '../src/host/start.ts'

// The selector page in real Chromium, embedded by a host page on another origin (and site) that
// speaks the raw window messages of docs/service-behaviour.md (no SDK), in each message family.

const chromium = chromiumOrSkip()
const ACME_CAMPAIGNS = '1753946835010000001'
const MY_BRAND = '1753946835000000005'
const ALL_BYTES = Array.from({ length: 256 }, (_, i) => i)

// The host page: records what the selector frame posts, and posts to it (to its exact origin).
const HOST_JS = `
window.messages = []
window.sources = []
let frame
let appOrigin
addEventListener('message', (e) => {
  if (!frame || e.origin !== appOrigin) return
  window.messages.push({ origin: e.origin, data: e.data })
  // A message posted while the page unloads arrives after the frame moved on: no source then.
  window.sources.push(e.source === frame.contentWindow ? 'frame' : e.source === null ? 'gone' : 'other')
})
window.embed = (src) => {
  frame = document.createElement('iframe')
  frame.src = src
  appOrigin = new URL(src).origin
  frame.title = 'Folder selector'
  frame.width = 900
  frame.height = 600
  document.body.append(frame)
}
window.send = (message) => frame.contentWindow.postMessage(message, appOrigin)
window.sendFiles = () => {
  const bytes = new Uint8Array(256).map((_, i) => i)
  window.send({
    type: 'open',
    data: {
      files: [
        new File(['hello, selector'], 'hello.txt', { type: 'text/plain' }),
        new File([bytes], 'all-bytes.bin', { type: 'application/octet-stream' }),
      ],
      options: { isUrl: false, link: 'https://example.com/post/1' },
    },
  })
}
// Files the user chose through <input type=file>: disk-backed Files, not in-memory buffers.
window.sendChosenFiles = () =>
  window.send({
    type: 'open',
    data: { files: [...document.querySelector('#files').files], options: { isUrl: false, link: '' } },
  })
window.addFrame = (src) =>
  new Promise((resolve) => {
    const other = document.createElement('iframe')
    other.src = src
    other.onload = resolve
    document.body.append(other)
  })
window.leave = () => { frame.src = 'about:blank' }
`

// Another origin's frame on the host page: it can reach the selector frame (frames[0]) too.
const EVIL_JS = `window.spoof = (message) => parent.frames[0].postMessage(message, '*')`

let sim: RunningSimulator
let server: Server
let browser: Browser
let hostOrigin: string
let evilOrigin: string

beforeAll(async () => {
  if (!chromium.available) return
  sim = await startSimulator()
  server = createServer((req, res) => {
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (req.url === '/host.html')
      return send(
        'text/html',
        '<!doctype html><title>host</title><script src="/host.js"></script><input type="file" id="files" multiple>',
      )
    if (req.url === '/host.js') return send('text/javascript', HOST_JS)
    if (req.url === '/evil.html')
      return send('text/html', '<!doctype html><title>evil</title><script src="/evil.js"></script>')
    if (req.url === '/evil.js') return send('text/javascript', EVIL_JS)
    if (req.url === '/pixel.png') return send('image/png', Buffer.from(ALL_BYTES))
    if (req.url === '/favicon.ico') return send('image/x-icon', '')
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  // The simulator is on 127.0.0.1: `localhost` makes the host another origin and another site.
  hostOrigin = `http://localhost:${port}`
  evilOrigin = `http://127.0.0.1:${port}`
  browser = await chromium.launch()
})

afterAll(async () => {
  await browser?.close()
  await sim?.stop()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
})

type Family = 'choiceModal' | 'selector' | 'both'
type Message = { origin: string; data: { type: string; payLoad?: unknown; message?: string } }

const TYPES = {
  choiceModal: {
    loaded: 'choiceModal-loaded',
    cancel: 'choiceModal-cancel',
    success: 'choiceModal-success',
    error: 'choiceModal-error',
    unMounted: 'choiceModal-unMounted',
  },
  selector: {
    init: 'selector-init',
    loaded: 'selector-loaded',
    cancel: 'selector-page-cancel',
    success: 'selector-page-success',
    error: 'selector-page-error',
    unMounted: 'selector-page-unMounted',
  },
} as const

/** The message types a family posts for an event, in posting order. */
function typesOf(family: Family, event: keyof (typeof TYPES)['selector']): string[] {
  const families = family === 'both' ? (['choiceModal', 'selector'] as const) : [family]
  return families.flatMap((f) => {
    const type = (TYPES[f] as Record<string, string>)[event]
    return type ? [`service-${type}`] : []
  })
}

interface Session {
  page: Page
  frame: Frame
  messages(): Promise<Message[]>
  /** Waits until `count` messages have arrived from the selector frame, and returns them all. */
  waitForMessages(count: number): Promise<Message[]>
  /** Console errors (CSP violations included) and uncaught errors, in any frame. */
  problems: string[]
}

/** A host page in a fresh context, with the selector page embedded, once the page has said it loaded. */
async function open(t: TestContext, family: Family, flow: 1 | 2): Promise<Session> {
  sim.control.quirks.selectorFamily = family
  const context = await browser.newContext()
  t.onTestFinished(() => context.close())
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(String(e)))
  await page.goto(`${hostOrigin}/host.html`)
  await page.evaluate(
    (src) => window.embed(src),
    `${sim.urls.app}/outer/outerChoice?type=content${flow === 2 ? '&file=empty' : ''}`,
  )
  const element = await page.waitForSelector('iframe')
  const frame = await element.contentFrame()
  if (!frame) throw new Error('no frame')
  const messages = () => page.evaluate(() => window.messages as Message[])
  const session: Session = {
    page,
    frame,
    messages,
    problems,
    async waitForMessages(count) {
      await page.waitForFunction((n) => window.messages.length >= n, count)
      return messages()
    },
  }
  const loaded = typesOf(family, 'loaded').length + (flow === 1 ? typesOf(family, 'init').length : 0)
  await session.waitForMessages(loaded)
  return session
}

const types = (messages: Message[]) => messages.map((m) => m.data.type)
const item = (frame: Frame, name: string) => frame.getByRole('treeitem', { name, exact: true })
/** The clickable row of a tree item (the item itself also holds its expanded children). */
const row = (frame: Frame, name: string) => item(frame, name).locator(':scope > .row')

declare global {
  interface Window {
    messages: unknown[]
    sources: string[]
    embed(src: string): void
    send(message: unknown): void
    sendFiles(): void
    sendChosenFiles(): void
    addFrame(src: string): Promise<void>
    leave(): void
    spoof(message: unknown): void
    seen: unknown[]
  }
}

describe.skipIf(!chromium.available)('the selector page in Chromium', () => {
  describe.each(['choiceModal', 'selector', 'both'] as const)('message family %s', (family) => {
    test('flow 2: loaded, the theme from init, a folder chosen by clicking, success with its ids', async (t) => {
      const s = await open(t, family, 2)
      expect(await s.messages()).toEqual(
        typesOf(family, 'loaded').map((type) => ({ origin: sim.urls.app, data: { type } })),
      )
      expect(await s.frame.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
      await s.page.evaluate(() => window.send({ type: 'service-choiceModal-init', data: { theme: 'dark' } }))
      await s.frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark')

      const confirm = s.frame.getByRole('button', { name: 'Confirm' })
      expect(await confirm.isDisabled()).toBe(true)
      await row(s.frame, 'Acme Campaigns').click()
      expect(await item(s.frame, 'Acme Campaigns').getAttribute('aria-selected')).toBe('true')
      expect(await s.frame.locator('#status').textContent()).toBe('Selected: Acme Design / Acme Campaigns')
      await confirm.click()
      const loaded = typesOf(family, 'loaded').length
      const messages = await s.waitForMessages(loaded + typesOf(family, 'success').length)
      // A folder id beyond 2^53 travels as a decimal string, a small id as a number.
      expect(messages.slice(loaded)).toEqual(
        typesOf(family, 'success').map((type) => ({
          origin: sim.urls.app,
          data: { type, payLoad: { id: ACME_CAMPAIGNS, orgId: 1001 } },
        })),
      )
      expect(s.problems).toEqual([])
    })

    test('flow 1: the files sent with open are uploaded into the chosen folder, then success', async (t) => {
      const s = await open(t, family, 1)
      const before = typesOf(family, 'init').length + typesOf(family, 'loaded').length
      expect(types(await s.messages())).toEqual([...typesOf(family, 'init'), ...typesOf(family, 'loaded')])
      const upload = s.frame.getByRole('button', { name: 'Upload' })
      await row(s.frame, 'My Brand assets').click()
      // No files yet: nothing to upload.
      expect(await upload.isDisabled()).toBe(true)
      const answers: Array<Promise<{ material: { id: string; accessUrl: string; name: string } }>> = []
      s.page.on('response', (r) => {
        if (r.url().includes('/outer/api/upload?')) answers.push(r.json())
      })
      await s.page.evaluate(() => window.sendFiles())
      await s.frame.locator('.file').nth(1).waitFor()
      expect(await s.frame.locator('.file-name').allTextContents()).toEqual(['hello.txt', 'all-bytes.bin'])
      expect(await s.frame.locator('#files-note').textContent()).toBe('2 files to upload')
      await upload.click()
      const messages = await s.waitForMessages(before + typesOf(family, 'success').length)
      expect(messages.slice(before).map((m) => m.data)).toEqual(
        typesOf(family, 'success').map((type) => ({ type, payLoad: { id: MY_BRAND, orgId: 1 } })),
      )
      expect(await s.frame.locator('.file[data-state="done"]').count()).toBe(2)

      const materials = await Promise.all(answers)
      expect(materials.map((a) => a.material.name)).toEqual(['hello', 'all-bytes'])
      const state = sim.control.snapshot().materials
      for (const [{ material }, bytes] of [
        [materials[0]!, [...Buffer.from('hello, selector')]],
        [materials[1]!, ALL_BYTES],
      ] as const) {
        expect(state.find((m) => m.id === material.id)).toMatchObject({
          folderId: MY_BRAND,
          space: 'u:1673603133161799680',
          link: 'https://example.com/post/1',
        })
        const response = await fetch(material.accessUrl)
        expect([...new Uint8Array(await response.arrayBuffer())]).toEqual(bytes)
      }
      expect(s.problems).toEqual([])
    })

    test('flow 1: files chosen from disk through <input type=file> are uploaded with their exact bytes', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'selector-disk-'))
      t.onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      const big = Buffer.alloc(3 * 1024 * 1024 + 5, 7)
      const files: Array<[string, Buffer]> = [
        ['a.txt', Buffer.from('hello from disk')],
        ['all-bytes.bin', Buffer.from(ALL_BYTES)],
        ['big.bin', big],
      ]
      for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes)
      const s = await open(t, family, 1)
      const before = typesOf(family, 'init').length + typesOf(family, 'loaded').length
      await s.page.setInputFiles(
        '#files',
        files.map(([name]) => join(dir, name)),
      )
      await s.page.evaluate(() => window.sendChosenFiles())
      await s.frame.locator('.file').nth(2).waitFor()
      await row(s.frame, 'Acme Campaigns').click()
      const savedBefore = new Set(sim.control.snapshot().materials.map((m) => m.id))
      await s.frame.getByRole('button', { name: 'Upload' }).click()
      const messages = await s.waitForMessages(before + typesOf(family, 'success').length)
      expect(messages.slice(before).map((m) => m.data)).toEqual(
        typesOf(family, 'success').map((type) => ({ type, payLoad: { id: ACME_CAMPAIGNS, orgId: 1001 } })),
      )
      const saved = sim.control.snapshot().materials.filter((m) => !savedBefore.has(m.id))
      expect(saved.map((m) => `${m.name}.${m.extension}`)).toEqual(files.map(([name]) => name))
      for (const [index, [, bytes]] of files.entries()) {
        const material = saved[index]!
        expect(material).toMatchObject({ folderId: ACME_CAMPAIGNS, space: 't:1001', size: bytes.length })
        const response = await fetch(
          `${sim.urls.app}/files/${material.id}/${encodeURIComponent(`${material.name}.${material.extension}`)}`,
        )
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
      }
      expect(s.problems).toEqual([])
    })

    test('Escape cancels; leaving the page posts unMounted', async (t) => {
      const s = await open(t, family, 2)
      const loaded = typesOf(family, 'loaded').length
      await row(s.frame, 'Globex Studio').click()
      await s.page.keyboard.press('Escape')
      await s.waitForMessages(loaded + typesOf(family, 'cancel').length)
      await s.page.evaluate(() => window.leave())
      const messages = await s.waitForMessages(
        loaded + typesOf(family, 'cancel').length + typesOf(family, 'unMounted').length,
      )
      expect(types(messages).slice(loaded)).toEqual([
        ...typesOf(family, 'cancel'),
        ...typesOf(family, 'unMounted'),
      ])
      expect(messages.every((m) => m.origin === sim.urls.app)).toBe(true)
      const sources = await s.page.evaluate(() => window.sources)
      expect(sources.slice(-typesOf(family, 'unMounted').length).every((v) => v === 'gone')).toBe(true)
      expect(s.problems).toEqual([])
    })
  })

  test('view-only and expired spaces are marked and cannot be chosen', async (t) => {
    const s = await open(t, 'both', 1)
    await s.page.evaluate(() => window.sendFiles())
    await s.frame.locator('.file').nth(1).waitFor()
    for (const name of ['Stark Library View only', 'Stark Brand assets', 'Umbrella Archive Expired']) {
      // Playwright waits for enabled elements; a user can click a disabled one all the same.
      await row(s.frame, name).click({ force: true })
      expect(await item(s.frame, name).getAttribute('aria-disabled')).toBe('true')
      expect(await item(s.frame, name).getAttribute('aria-selected')).toBe('false')
      expect(await s.frame.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true)
    }
    expect(await s.frame.locator('#status').textContent()).toBe(
      'You cannot upload to Umbrella Archive: this space has expired.',
    )
    expect(s.problems).toEqual([])
  })

  test('messages from anything but the parent window are ignored', async (t) => {
    const s = await open(t, 'choiceModal', 1)
    await s.page.evaluate((src) => window.addFrame(src), `${evilOrigin}/evil.html`)
    const evil = s.page.frames().find((f) => f.url().startsWith(evilOrigin))
    if (!evil) throw new Error('no evil frame')
    // A listener added after the page's own: once it has seen a message, the page has handled it.
    await s.frame.evaluate(() => {
      window.seen = []
      addEventListener('message', (e) => window.seen.push(e.data?.type))
    })
    await evil.evaluate(() => {
      window.spoof({ type: 'service-choiceModal-init', data: { theme: 'dark' } })
      window.spoof({
        type: 'open',
        data: { files: ['http://127.0.0.1:1/x.png'], options: { isUrl: true, link: '' } },
      })
    })
    await s.frame.evaluate(() =>
      window.postMessage({ type: 'service-choiceModal-init', data: { theme: 'dark' } }, '*'),
    )
    await s.frame.waitForFunction(() => window.seen.length === 3)
    expect(await s.frame.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
    expect(await s.frame.locator('.file').count()).toBe(0)
    // The parent's message is still the first accepted one.
    await s.page.evaluate(() => window.sendFiles())
    await s.frame.locator('.file').nth(1).waitFor()
    expect(await s.frame.locator('.file-name').allTextContents()).toEqual(['hello.txt', 'all-bytes.bin'])
    expect(s.problems).toEqual([])
  })

  test('flow 1 with addresses: the simulator fetches them; progress shown; success', async (t) => {
    const s = await open(t, 'selector', 1)
    await s.page.evaluate(
      (url) => window.send({ type: 'open', data: { files: [url], options: { isUrl: true, link: '' } } }),
      `${evilOrigin}/pixel.png`,
    )
    await s.frame.locator('.file').waitFor()
    expect(await s.frame.locator('.file-size').textContent()).toBe('address')
    await row(s.frame, 'Acme Design').click()
    await s.frame.getByRole('button', { name: 'Upload' }).click()
    const messages = await s.waitForMessages(3)
    expect(messages[2]?.data).toEqual({
      type: 'service-selector-page-success',
      payLoad: { id: 0, orgId: 1001 },
    })
    const saved = sim.control.snapshot().materials.find((m) => m.name === 'pixel' && m.space === 't:1001')
    expect(saved).toMatchObject({ folderId: '0', extension: 'png', size: 256 })
    expect(s.problems).toEqual([])
  })

  test('a failed upload posts error with the reason', async (t) => {
    const s = await open(t, 'choiceModal', 1)
    const fault = sim.control.faults.inject({
      match: { target: 'app', path: '/outer/api/upload?' },
      action: { type: 'status', status: 503 },
    })
    t.onTestFinished(() => fault.remove())
    await s.page.evaluate(() => window.sendFiles())
    await s.frame.locator('.file').nth(1).waitFor()
    await row(s.frame, 'My space (Ada Lovelace)').click()
    await s.frame.getByRole('button', { name: 'Upload' }).click()
    const messages = await s.waitForMessages(2)
    expect(messages[1]?.data).toEqual({
      type: 'service-choiceModal-error',
      message: 'hello.txt: the upload failed (HTTP 503)',
    })
    expect(await s.frame.locator('#status').textContent()).toBe('hello.txt: the upload failed (HTTP 503)')
    expect(fault.hits).toBe(1)
    // The browser logs the failed request; nothing else went wrong.
    expect(s.problems.filter((p) => !p.includes('status of 503'))).toEqual([])
  })

  test('quirks: ids always as JSON numbers (rounded beyond 2^53); the personal space without orgId', async (t) => {
    sim.control.quirks.selectorIds = 'numbers'
    sim.control.quirks.selectorPersonalOrg = 'absent'
    t.onTestFinished(() => {
      sim.control.quirks.selectorIds = 'exact'
      sim.control.quirks.selectorPersonalOrg = 'one'
    })
    const s = await open(t, 'choiceModal', 2)
    await row(s.frame, 'Acme Campaigns').click()
    await s.frame.getByRole('button', { name: 'Confirm' }).click()
    const s2 = await open(t, 'choiceModal', 2)
    await row(s2.frame, 'My space (Ada Lovelace)').click()
    await s2.frame.getByRole('button', { name: 'Confirm' }).click()
    expect((await s.waitForMessages(2))[1]?.data).toEqual({
      type: 'service-choiceModal-success',
      payLoad: { id: Number(ACME_CAMPAIGNS), orgId: 1001 },
    })
    expect((await s2.waitForMessages(2))[1]?.data).toEqual({
      type: 'service-choiceModal-success',
      payLoad: { id: 0 },
    })
  })

  test('keyboard: arrows move, Right opens, Enter selects, Enter again confirms', async (t) => {
    const s = await open(t, 'choiceModal', 2)
    await item(s.frame, 'My space (Ada Lovelace)').focus()
    for (const key of ['ArrowDown', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'Enter'])
      await s.page.keyboard.press(key)
    expect(await s.frame.locator('[aria-selected="true"]').getAttribute('data-path')).toBe(
      'My space (Ada Lovelace) / My Campaigns / 2026 Autumn',
    )
    await s.page.keyboard.press('Enter')
    const messages = await s.waitForMessages(2)
    expect(messages[1]?.data).toEqual({
      type: 'service-choiceModal-success',
      payLoad: { id: '1753946835000000003', orgId: 1 },
    })
    expect(s.problems).toEqual([])
  })
})
