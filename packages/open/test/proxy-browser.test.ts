import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { chromiumOrSkip } from '@service-sdk/testkit'
import { Hono } from 'hono'
import type { Browser, Page } from 'playwright-core'
import { rolldown } from 'rolldown'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createOpenClient } from '../src/index.ts'
import { createUploadProxy } from '../src/proxy/index.ts'
import type { ProxyPageResult } from './proxy-page.ts'
import { ensureBuild } from './upload/build.ts'
import { countOss, KiB, servedHash, sha256 } from './upload/helpers.ts'

// Three origins, as in production: the page (a static server with the page bundled the way an
// application's bundler would, through the package's browser build), the application's backend
// with the upload proxy mounted on Hono, and the simulator's object store (its open API is a
// fourth, which the page never calls but in the CORS test).

const chromium = chromiumOrSkip()

let sim: RunningSimulator
let browser: Browser
let pageServer: Server
let backend: ServerType
let pageOrigin: string
let proxyUrl: string
let chunks: Map<string, string>
/** Every answer the page received from the proxy: URL and body. */
const answers: Array<{ url: string; body: string }> = []

async function bundlePage(): Promise<Map<string, string>> {
  const build = await rolldown({
    input: { page: join(import.meta.dirname, 'proxy-page.ts') },
    platform: 'browser',
    logLevel: 'silent',
  })
  const { output } = await build.generate({ format: 'esm' })
  await build.close()
  return new Map(output.flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o.code] as const] : [])))
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  )

beforeAll(async () => {
  if (!chromium.available) return
  ensureBuild()
  chunks = await bundlePage()
  sim = await startSimulator()
  pageServer = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      return response.end(
        '<!doctype html><meta charset="utf-8"><title>proxy</title><input type="file" id="file"><script type="module" src="/page.js"></script>',
      )
    }
    const chunk = chunks.get(path.slice(1))
    if (chunk === undefined) return response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' })
    return response.end(chunk)
  })
  pageOrigin = await listen(pageServer)
  const proxy = createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    authorize: (request) => {
      const session = request.headers.get('authorization')
      return session === 'Bearer alice-session'
        ? { id: 'alice' }
        : session === 'Bearer bob-session'
          ? { id: 'bob' }
          : false
    },
    allowedOrigins: [pageOrigin],
  })
  const app = new Hono()
  app.all('/upload/*', (c) => proxy(c.req.raw))
  backend = await new Promise<ServerType>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server))
  })
  proxyUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/upload`
  browser = await chromium.launch()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => pageServer?.close(resolve))
  await new Promise((resolve) => backend?.close(resolve))
  await sim?.stop()
})

async function open(): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  page.on('response', async (response) => {
    if (!response.url().startsWith(proxyUrl) || response.request().method() !== 'POST') return
    answers.push({ url: response.url(), body: await response.text().catch(() => '') })
  })
  await page.goto(pageOrigin)
  await page.waitForFunction(() => window.ready === true)
  return { page, errors, close: () => context.close() }
}

/** Chooses a file in the page's `<input type=file>`, as a user would: a File backed by the browser. */
async function choose(page: Page, name: string, bytes: Uint8Array) {
  await page.setInputFiles('#file', {
    name,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  })
}

function serviceCalls() {
  const handle = sim.control.faults.inject({
    match: { target: 'open' },
    action: { type: 'latency', ms: 0 },
    times: Infinity,
  })
  return { count: () => handle.hits, done: () => handle.remove() }
}

const bytes = (size: number) => new Uint8Array(size).map((_, i) => (i * 31 + (i >> 10)) % 256)

describe.skipIf(!chromium.available)(
  'browser uploads through the proxy, in Chromium, across three origins',
  () => {
    test("a chosen File: signatures and save through the proxy, bytes straight to the store, the service's accessUrl", async () => {
      const { page, errors, close } = await open()
      const data = bytes(600 * KiB + 5)
      await choose(page, 'holiday photo.bin', data)
      const ops = countOss(sim, ['PutObject', 'UploadPart'])
      const result = (await page.evaluate(
        (u) => window.uploadChosen(u, 'alice-session'),
        proxyUrl,
      )) as ProxyPageResult
      expect(result.error).toBeUndefined()
      expect(result.sha256).toBe(sha256(data))
      expect(result.asset).toMatchObject({ name: 'holiday photo', extension: 'bin', size: data.length })
      // Straight to the store in parts, never through the proxy.
      expect(ops().UploadPart).toBe(3)
      const accessUrl = new URL(result.asset?.accessUrl ?? '')
      expect(accessUrl.origin).toBe(new URL(sim.urls.open).origin)
      expect(accessUrl.origin).not.toBe(new URL(proxyUrl).origin)
      expect(await servedHash(accessUrl.href)).toBe(sha256(data))
      // The page's answers are read as they arrive (a response listener): wait for the last one.
      await expect
        .poll(() => answers.map((a) => a.url.split('/').at(-1)))
        .toEqual(expect.arrayContaining(['sign', 'material-save']))
      expect(errors).toEqual([])
      sim.control.faults.clear()
      await close()
    })

    test('a page without a session: 401 from the proxy, and nothing reaches the service', async () => {
      const { page, close } = await open()
      await choose(page, 'x.bin', bytes(10 * KiB))
      const calls = serviceCalls()
      const result = (await page.evaluate(
        (u) => window.uploadChosen(u, 'stolen-session'),
        proxyUrl,
      )) as ProxyPageResult
      expect(result.error).toMatchObject({
        name: 'ServiceAuthenticationError',
        status: 401,
        code: 'unauthorized',
      })
      expect(calls.count()).toBe(0)
      calls.done()
      await close()
    })

    test("saving another user's object is refused by the proxy (403), before the service", async () => {
      const { page, close } = await open()
      await choose(page, 'bobs.bin', bytes(4 * KiB))
      const bobs = (await page.evaluate(
        (u) => window.uploadChosen(u, 'bob-session'),
        proxyUrl,
      )) as ProxyPageResult
      expect(bobs.error).toBeUndefined()
      const calls = serviceCalls()
      const result = (await page.evaluate(([u, key]) => window.save(u, 'alice-session', key), [
        proxyUrl,
        bobs.asset?.key ?? '',
      ] as const)) as ProxyPageResult
      expect(result.error).toMatchObject({
        name: 'ServicePermissionError',
        status: 403,
        code: 'outside_upload_dir',
      })
      expect(calls.count()).toBe(0)
      calls.done()
      await close()
    })

    test("no answer to the page holds the token or the STS credential's secret; none is a credential", async () => {
      expect(answers.length).toBeGreaterThan(3)
      const token = sim.credentials.openToken.value
      const server = createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken })
      const { accessKeySecret } = await server.credentials()
      for (const { url, body } of answers) {
        expect(body, url).not.toContain(token)
        expect(body, url).not.toContain(accessKeySecret)
        expect(body, url).not.toMatch(/accessKeySecret|securityToken/)
      }
      expect(answers.some((a) => a.url.endsWith('/sts-tmp'))).toBe(false)
    })

    test('calling the service straight from the page: the connection error names CORS', async () => {
      const { page, close } = await open()
      const result = (await page.evaluate((u) => window.direct(u), sim.urls.open)) as ProxyPageResult
      expect(result.error?.name).toBe('ServiceConnectionError')
      expect(result.error?.message).toContain('CORS')
      expect(result.error?.message).toContain(pageOrigin)
      expect(result.error?.message).toContain('@service-sdk/open/proxy')
      await close()
    })
  },
)
