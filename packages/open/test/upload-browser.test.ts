import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { chromiumOrSkip } from '@service-sdk/testkit'
import type { Browser, Page } from 'playwright-core'
import { rolldown } from 'rolldown'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PageResult, PageUpload } from './upload/browser-page.ts'
import { ensureBuild } from './upload/build.ts'
import { countOss, KiB, MiB, rawOss, recordingClient, rejection, servedHash } from './upload/helpers.ts'

// A File uploaded from real Chromium through the package's browser build (dist/browser.js, as a
// bundler resolves it through the `browser` export condition). The page's origin serves the page
// and stands in for the application's backend on the open API (it adds the token); the object
// storage is the simulator's, on another origin, answering CORS.

const chromium = chromiumOrSkip()

let sim: RunningSimulator
let browser: Browser
let server: Server
let origin: string
/** The page's chunks by file name: the entry, and those loaded on first use (the upload engine, ali-oss). */
let chunks: Map<string, string>
let bundle: string

/** Bundles the page the way an application's bundler would: the entry is page.js. */
async function bundlePage(): Promise<Map<string, string>> {
  const build = await rolldown({
    input: { page: join(import.meta.dirname, 'upload', 'browser-page.ts') },
    platform: 'browser',
    logLevel: 'silent',
  })
  const { output } = await build.generate({ format: 'esm' })
  await build.close()
  return new Map(output.flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o.code] as const] : [])))
}

async function readBody(request: import('node:http').IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

beforeAll(async () => {
  if (!chromium.available) return
  ensureBuild()
  chunks = await bundlePage()
  bundle = [...chunks.values()].join('\n')
  sim = await startSimulator()
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://page')
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return response.end(
        '<!doctype html><meta charset="utf-8"><title>upload</title><script type="module" src="/page.js"></script>',
      )
    }
    const chunk = chunks.get(url.pathname.slice(1))
    if (chunk !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' })
      return response.end(chunk)
    }
    if (url.pathname.startsWith('/open-api/')) {
      // The application's backend: the page's session in, the open API token out.
      const body = await readBody(request)
      const answer = await fetch(`${sim.urls.open}${url.pathname}`, {
        method: request.method ?? 'POST',
        headers: {
          'content-type': request.headers['content-type'] ?? 'application/json',
          authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`,
        },
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      })
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      })
      return response.end(Buffer.from(await answer.arrayBuffer()))
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
  await sim?.stop()
})

async function page(): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext()
  const p = await context.newPage()
  const errors: string[] = []
  p.on('pageerror', (e) => errors.push(String(e)))
  await p.goto(origin)
  await p.waitForFunction(() => window.ready === true)
  return { page: p, errors, close: () => context.close() }
}

const upload = (p: Page, options: PageUpload) =>
  p.evaluate((o) => window.upload(o), options) as Promise<PageResult>

describe.skipIf(!chromium.available)('in Chromium, through the browser build', () => {
  test('the bundle an application gets holds no Node module, and ali-oss is its browser build', () => {
    expect(bundle).not.toMatch(/from\s*["']node:|require\(["']node:/)
    expect(bundle).toMatch(/aliyun-sdk-js|XMLHttpRequest/)
  })

  test('a File in one PUT: the asset serves exactly its bytes', async () => {
    const { page: p, errors, close } = await page()
    const ops = countOss(sim, ['PutObject', 'UploadPart'])
    const result = await upload(p, { name: 'photo 1+2 é.bin', size: 300 * KiB })
    expect(result.error).toBeUndefined()
    expect(ops()).toEqual({ PutObject: 1, UploadPart: 0 })
    expect(result.asset).toMatchObject({ name: 'photo 1+2 é', extension: 'bin', size: 300 * KiB })
    expect(await servedHash(result.asset!.accessUrl)).toBe(result.sha256)
    expect(errors).toEqual([])
    sim.control.faults.clear()
    await close()
  })

  test('a File in parallel parts: Blob slices sent as they are, progress from the request bodies, exact bytes', async () => {
    const { page: p, errors, close } = await page()
    const size = 1.5 * MiB + 7
    const ops = countOss(sim, ['PutObject', 'UploadPart', 'CompleteMultipartUpload'])
    const result = await upload(p, { name: 'video.bin', size, partSize: 256 * KiB, parallel: 3 })
    expect(result.error).toBeUndefined()
    expect(ops()).toEqual({ PutObject: 0, UploadPart: 7, CompleteMultipartUpload: 1 })
    expect(await servedHash(result.asset!.accessUrl)).toBe(result.sha256)
    expect([...new Set(result.progress.map((e) => e.phase))]).toEqual([
      'credentials',
      'uploading',
      'saving',
      'done',
    ])
    expect(result.progress.at(-1)).toMatchObject({ loaded: size, total: size })
    // Counted from XHR upload events as bodies go out (on loopback Chromium reports about once per
    // part; on a real link every ~50 ms), then settled as each part is stored.
    const uploading = result.progress.filter((e) => e.phase === 'uploading').map((e) => e.loaded)
    expect(uploading.length).toBeGreaterThan(7)
    expect(uploading).toEqual([...uploading].sort((a, b) => a - b))
    expect(errors).toEqual([])
    sim.control.faults.clear()
    await close()
  })

  test('pause and resume of a File: nothing moves while paused, then the exact bytes', async () => {
    const { page: p, errors, close } = await page()
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 30 },
      times: Infinity,
    })
    const result = await upload(p, { name: 'paused.bin', size: 2 * MiB, partSize: 256 * KiB, pauseAt: 1 })
    expect(result.error).toBeUndefined()
    expect(result.paused).toBeDefined()
    expect(result.paused?.after).toBe(result.paused?.at)
    expect(result.progress.some((e) => e.paused)).toBe(true)
    expect(await servedHash(result.asset!.accessUrl)).toBe(result.sha256)
    expect(errors).toEqual([])
    sim.control.faults.clear()
    await close()
  })

  test('a File failing for good, then retried once the fault is lifted: the stored parts are kept', async () => {
    const { page: p, errors, close } = await page()
    const blocked = sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart', partNumber: 3 },
      action: { type: 'status', status: 403, ossCode: 'AccessDenied' },
      times: Infinity,
    })
    const failed = await upload(p, {
      name: 'retried.bin',
      size: 1 * MiB + 3,
      partSize: 256 * KiB,
      parallel: 1,
    })
    expect(failed.error).toMatchObject({ name: 'UploadError' })
    blocked.remove()
    const parts = countOss(sim, ['UploadPart', 'InitiateMultipartUpload'])
    const result = (await p.evaluate(() => window.retry())) as PageResult
    expect(result.error).toBeUndefined()
    expect(result.uploadId).toBe(failed.uploadId)
    expect(parts()).toEqual({ UploadPart: 3, InitiateMultipartUpload: 0 })
    expect(await servedHash(result.asset!.accessUrl)).toBe(result.sha256)
    expect(errors).toEqual([])
    await close()
  })

  test('an abort in the browser: AbortError, no object, the multipart upload aborted on the server', async () => {
    const { page: p, close } = await page()
    sim.control.faults.inject({
      match: { target: 'oss', op: 'UploadPart' },
      action: { type: 'latency', ms: 200 },
      times: Infinity,
    })
    const result = await upload(p, { name: 'aborted.bin', size: 2 * MiB, partSize: 256 * KiB, abortAt: 1 })
    expect(result.error).toMatchObject({ name: 'AbortError' })
    const oss = rawOss(await recordingClient(sim).open.credentials())
    expect(await rejection(oss.listParts(result.key!, result.uploadId!))).toMatchObject({
      code: 'NoSuchUpload',
    })
    expect(await rejection(oss.head(result.key!))).toMatchObject({ status: 404 })
    sim.control.faults.clear()
    await close()
  })
})
