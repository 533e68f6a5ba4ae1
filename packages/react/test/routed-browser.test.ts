import { createHash, randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { Server } from 'node:net'
import { createUploadProxy } from '@service-sdk/open/proxy'
import { createInProcessSimulator, type InProcessSimulator } from '@service-sdk/simulator'
import { routeOrigin, routeToSimulator } from '@service-sdk/simulator/playwright'
import { chromiumOrSkip, selectorPageFrame } from '@service-sdk/testkit'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildPage } from './build-page.ts'
import { confirmFolder, uploadThroughPicker } from './picker-steps.ts'
import { pageFiles } from './servers.ts'

// The same built page as browser.test.ts, in real Chromium, with no server at all: every request
// of the page (its own files, the upload proxy, the simulator's selector page in its iframe, the
// open API, the object store) is answered from this process through Playwright routes. The page,
// the proxy and the simulator each have an https origin of their own.

const chromium = chromiumOrSkip()

const PAGE = 'https://shop.test'
const BACKEND = 'https://backend.test'
const ACME_CAMPAIGNS = '1753946835010000001'
const ACME_BRAND = '1753946835010000005'
const KiB = 1024

let sim: InProcessSimulator
let browser: Browser
let dist: string

beforeAll(async () => {
  if (!chromium.available) return
  dist = await buildPage()
  sim = createInProcessSimulator()
  browser = await chromium.launch()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  sim?.close()
  if (dist) await rm(dist, { recursive: true, force: true })
})

interface Routed {
  page: Page
  context: BrowserContext
  /** Every URL the page and its frames requested. */
  requested: string[]
  /** Requests that failed, with Chromium's reason. */
  failed: string[]
}

async function openPage(t: { onTestFinished(fn: () => unknown): void }): Promise<Routed> {
  const context = await browser.newContext()
  t.onTestFinished(() => context.close())
  // The application's backend: the upload proxy, calling the simulator's open API in process too.
  const proxy = createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    fetch: sim.fetch,
    authorize: (request) =>
      request.headers.get('authorization') === 'Bearer alice-session' ? { id: 'alice' } : false,
    allowedOrigins: [PAGE],
  })
  await routeOrigin(context, PAGE, pageFiles(dist))
  await routeOrigin(context, BACKEND, proxy)
  await routeToSimulator(context, sim)
  const requested: string[] = []
  const failed: string[] = []
  context.on('request', (request) => requested.push(request.url()))
  context.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`))
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  t.onTestFinished(() => expect(errors).toEqual([]))
  const query = new URLSearchParams({ appUrl: sim.urls.app, proxyUrl: `${BACKEND}/api/upload` })
  await page.goto(`${PAGE}/?${query}`)
  await page.waitForSelector('#files')
  return { page, context, requested, failed }
}

const _json = async (page: Page, selector: string) => JSON.parse((await page.textContent(selector)) || 'null')
const row = (page: Page, name: string) => page.locator(`#uploads li[data-name="${name}"]`)
const status = (page: Page, name: string) => row(page, name).getAttribute('data-status')
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

async function servedHash(url: string): Promise<string> {
  const response = await sim.fetch(url)
  expect(response.status).toBe(200)
  return sha256(new Uint8Array(await response.arrayBuffer()))
}

async function chooseFiles(page: Page, files: Array<{ name: string; bytes: Buffer }>) {
  await page.setInputFiles(
    '#files',
    files.map(({ name, bytes }) => ({ name, mimeType: 'application/octet-stream', buffer: bytes })),
  )
}

/** Servers listening in this process. */
const listening = () =>
  (process as unknown as { _getActiveHandles(): unknown[] })
    ._getActiveHandles()
    .filter((h) => h instanceof Server)

const origins = () =>
  new Set([PAGE, BACKEND, sim.urls.app, sim.urls.open, `https://service-sim.oss.${sim.domain}`])

describe.skipIf(!chromium.available)('in Chromium, every request answered from the test process', () => {
  test('useFolderPicker, flow 2: the selector page opens in its iframe from the routed simulator; the choice arrives', async (t) => {
    const { page, requested } = await openPage(t)
    await page.click('#pick')
    const frame = await selectorPageFrame(page)
    expect(frame.url().startsWith(`${sim.urls.app}/outer/outerChoice`)).toBe(true)
    // https origins: the page and the selector are secure contexts, as in production.
    expect([await page.evaluate(() => isSecureContext), await frame.evaluate(() => isSecureContext)]).toEqual(
      [true, true],
    )
    await confirmFolder(page, frame, 'Acme Campaigns', ACME_CAMPAIGNS)
    expect(requested.some((url) => url.startsWith(`${sim.urls.app}/outer/assets/selector.js`))).toBe(true)
  })

  test('useFolderPicker, flow 1: the selector page uploads the files through its own routed origin', async (t) => {
    const { page } = await openPage(t)
    await uploadThroughPicker(page, sim.control, ACME_BRAND)
  })

  test('useUploads: files go up through the routed proxy to the routed store, in parts; each asset serves its exact bytes', async (t) => {
    const { page, requested, failed } = await openPage(t)
    const parts = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 0 },
      times: Infinity,
    })
    t.onTestFinished(() => parts.remove())
    const files = [
      { name: 'small.bin', bytes: randomBytes(40 * KiB) },
      { name: 'parts.bin', bytes: randomBytes(350 * KiB + 3) },
    ]
    await chooseFiles(page, files)
    await page.waitForFunction(
      () => document.querySelectorAll('#uploads li[data-status="done"]').length === 2,
    )
    expect(parts.hits).toBe(4)
    for (const { name, bytes } of files) {
      const url = await row(page, name).getAttribute('data-url')
      expect(new URL(url ?? '').origin).toBe(sim.urls.open)
      expect(await servedHash(url ?? ''), name).toBe(sha256(bytes))
    }
    expect(failed).toEqual([])
    const seen = new Set(requested.map((url) => new URL(url).origin))
    expect([...seen].filter((origin) => !origins().has(origin))).toEqual([])
    expect(seen.has(BACKEND) && seen.has(`https://service-sim.oss.${sim.domain}`)).toBe(true)
  })

  test('a reset connection (fault reset) is a failed request in the page; the client retries the part', async (t) => {
    const { page, failed } = await openPage(t)
    const reset = sim.control.faults.inject({
      // Resets are taken before the request is read: they match on target, method and path.
      match: { target: 'oss', method: 'PUT', path: /[?&]partNumber=2&/ },
      action: { type: 'reset' },
    })
    t.onTestFinished(() => reset.remove())
    const file = { name: 'reset.bin', bytes: randomBytes(250 * KiB) }
    await chooseFiles(page, [file])
    await expect.poll(() => status(page, 'reset.bin'), { timeout: 20_000 }).toBe('done')
    expect(reset.hits).toBe(1)
    expect(failed).toEqual([expect.stringMatching(/partNumber=2.*: net::ERR_CONNECTION_RESET$/)])
    expect(await servedHash((await row(page, 'reset.bin').getAttribute('data-url')) ?? '')).toBe(
      sha256(file.bytes),
    )
  })

  test("the bucket's CORS rules still apply: with ossCors 'none' the page cannot read the store's answer", async (t) => {
    const { page, failed } = await openPage(t)
    sim.control.quirks.ossCors = 'none'
    t.onTestFinished(() => sim.control.reset())
    await chooseFiles(page, [{ name: 'blocked.bin', bytes: randomBytes(10 * KiB) }])
    await expect.poll(() => status(page, 'blocked.bin'), { timeout: 20_000 }).toBe('failed')
    expect(await row(page, 'blocked.bin').getAttribute('data-error')).toBe('UploadError')
    expect(failed.some((line) => line.includes('/blocked.bin') && line.endsWith('net::ERR_FAILED'))).toBe(
      true,
    )
  })

  test('routes on a Page too; the function returned removes them (the simulator is then out of reach)', async (t) => {
    const context = await browser.newContext()
    t.onTestFinished(() => context.close())
    await routeOrigin(context, PAGE, pageFiles(dist))
    const page = await context.newPage()
    const unroute = await routeToSimulator(page, sim)
    await page.goto(`${PAGE}/`)
    const storeAnswer = (url: string) =>
      page.evaluate(
        (u) =>
          fetch(u).then(
            (r) => String(r.status),
            (e: Error) => e.name,
          ),
        url,
      )
    expect(await storeAnswer(`${sim.urls.oss}/nothing`)).toBe('403')
    await unroute()
    expect(await storeAnswer(`${sim.urls.oss}/nothing`)).toBe('TypeError')
  })

  test('no server was started: nothing listens in this process', () => {
    expect(listening()).toEqual([])
  })
})
