import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join, normalize } from 'node:path'
import { gzipSync } from 'node:zlib'
import { type ServerType, serve } from '@hono/node-server'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { chromiumOrSkip } from '@service-sdk/testkit'
import { Hono } from 'hono'
import type { Browser, Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUploadProxy } from '../src/proxy/index.ts'
import type { ResumeResult } from './resume-page/main.ts'
import { ensureBuild } from './upload/build.ts'
import { MiB, servedHash, sha256, testBytes, type Workspace, workspace } from './upload/helpers.ts'

// A user uploads a 64 MiB file from disk in Chromium, on a page built with Vite, through the
// upload proxy (three origins: the page, the application's backend, the object store). Half-way
// the page is reloaded; the user picks the same file again and the upload continues from the
// parts already stored (checkpoints in IndexedDB, ListParts signed by the proxy). The JavaScript
// the page loads for that first upload is weighed as it arrives.

const chromium = chromiumOrSkip()
const SIZE = 64 * MiB
const PART = 8 * MiB
const PARALLEL = 3
/** Everything the first upload loads (entry and lazy chunks), gzipped. */
const FIRST_UPLOAD_BUDGET = 40 * 1024

let sim: RunningSimulator
let browser: Browser
let pageServer: Server
let backend: ServerType
let pageOrigin: string
let proxyUrl: string
let dist: string
let work: Workspace
let file: string
let bytes: Buffer

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' }

const listen = (server: Server, host: string) =>
  new Promise<string>((resolve) =>
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`)),
  )

beforeAll(async () => {
  if (!chromium.available) return
  ensureBuild()
  dist = await mkdtemp(join(tmpdir(), 'resume-page-'))
  await build({
    root: join(import.meta.dirname, 'resume-page'),
    logLevel: 'silent',
    build: { outDir: dist, emptyOutDir: true },
  })
  sim = await startSimulator()
  work = await workspace()
  bytes = testBytes(SIZE)
  file = await work.file('holiday film.mp4', bytes)
  pageServer = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://page').pathname)
    const local = join(dist, path === '/' ? 'index.html' : path)
    if (!local.startsWith(dist)) return response.writeHead(404).end()
    response.writeHead(200, { 'content-type': TYPES[extname(local)] ?? 'application/octet-stream' })
    createReadStream(local)
      .on('error', () => response.end())
      .pipe(response)
  })
  pageOrigin = await listen(pageServer, 'localhost')
  const proxy = createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    authorize: (request) =>
      request.headers.get('authorization') === 'Bearer alice-session' ? { id: 'alice' } : false,
    allowedOrigins: [pageOrigin],
  })
  const app = new Hono()
  app.all('/upload/*', (c) => proxy(c.req.raw))
  backend = await new Promise<ServerType>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server))
  })
  proxyUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/upload`
  browser = await chromium.launch()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => pageServer?.close(resolve))
  await new Promise((resolve) => backend?.close(resolve))
  await sim?.stop()
  await work?.remove()
  if (dist) await rm(dist, { recursive: true, force: true })
})

/** Gzipped bytes of each script the page loads from its own origin, as they arrive. */
function weighScripts(page: Page): Map<string, number> {
  const scripts = new Map<string, number>()
  page.on('response', async (response) => {
    if (!response.url().startsWith(pageOrigin) || extname(new URL(response.url()).pathname) !== '.js') return
    const body = await response.body().catch(() => undefined)
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body).length)
  })
  return scripts
}

async function pickAndUpload(page: Page): Promise<ResumeResult> {
  await page.waitForFunction(() => window.ready === true)
  await page.setInputFiles('#file', file)
  return page.evaluate((url) => window.uploadResumable(url, 'alice-session'), proxyUrl)
}

describe.skipIf(!chromium.available)(
  'a browser upload survives a page reload (IndexedDB checkpoints, through the proxy)',
  () => {
    test('64 MiB from disk: reloaded half-way, the same file picked again continues from the stored parts; the bytes arrive exact', async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(String(e)))
      const scripts = weighScripts(page)
      await page.goto(pageOrigin)
      // Slow parts, so that the reload lands with parts stored and parts in flight. The rule's hits
      // count every UploadPart request of both page loads.
      const parts = sim.control.faults.inject({
        match: { target: 'oss', op: 'UploadPart' },
        action: { type: 'latency', ms: 400 },
        times: Infinity,
      })
      const initiated = sim.control.faults.inject({
        match: { target: 'oss', op: 'InitiateMultipartUpload' },
        action: { type: 'latency', ms: 0 },
        times: Infinity,
      })
      const listed = sim.control.faults.inject({
        match: { target: 'oss', op: 'ListParts' },
        action: { type: 'latency', ms: 0 },
        times: Infinity,
      })
      void pickAndUpload(page).catch(() => {})
      await page.waitForFunction((half) => window.uploadedBytes >= half, SIZE * 0.4, { timeout: 60_000 })
      const firstUpload = [...scripts.values()].reduce((sum, size) => sum + size, 0)
      console.info(
        `first upload, everything loaded: ${(firstUpload / 1024).toFixed(1)} KB gzip (${[...scripts]
          .map(([path, size]) => `${path} ${(size / 1024).toFixed(1)} KB`)
          .join(', ')})`,
      )
      expect(firstUpload).toBeLessThanOrEqual(FIRST_UPLOAD_BUDGET)
      await page.reload()
      await page.waitForFunction(() => window.ready === true)

      // After the reload: the unfinished upload is listed, with the parts stored so far.
      const unfinished = await page.evaluate(() => window.listResumable())
      expect(unfinished).toEqual([{ name: 'holiday film.mp4', size: SIZE, stored: expect.any(Number) }])
      expect(unfinished[0]?.stored).toBeGreaterThan(0)
      expect(unfinished[0]?.stored).toBeLessThan(SIZE)

      const result = await pickAndUpload(page)
      expect(result.error).toBeUndefined()
      expect(result.asset?.size).toBe(SIZE)
      expect(await servedHash(result.asset?.accessUrl ?? '')).toBe(sha256(bytes))
      // One multipart upload, listed once on resume; parts sent again: at most those in flight at the reload.
      expect(initiated.hits).toBe(1)
      expect(listed.hits).toBe(1)
      const resent = parts.hits - SIZE / PART
      console.info(
        `parts sent again after the reload: ${resent} (${(resent * PART) / MiB} MiB of ${SIZE / MiB})`,
      )
      expect(resent).toBeGreaterThanOrEqual(0)
      expect(resent).toBeLessThanOrEqual(PARALLEL)
      expect(await page.evaluate(() => window.listResumable())).toEqual([])
      expect(errors).toEqual([])
      sim.control.faults.clear()
      await context.close()
    }, 180_000)
  },
)
