import { type ChildProcess, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { join } from 'node:path'
import { type RunningSimulator, simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { chromiumOrSkip } from '@service-sdk/testkit'
import type { Browser } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// The example as a user runs it: `vite build`, then `node server/index.ts` with the simulator's
// SERVICE_* variables, the page opened in Chromium. The page and its upload proxy are on
// localhost; the simulator (selector page, open API, object store) is on 127.0.0.1.

const root = join(import.meta.dirname, '..')
const chromium = chromiumOrSkip()
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const ACME_CAMPAIGNS = '1753946835010000001'

let sim: RunningSimulator
let server: ChildProcess
let origin: string
let browser: Browser

/** Starts the server on a free port; resolves with its URL once it prints it. */
async function startServer(): Promise<string> {
  server = spawn(process.execPath, [join(root, 'server', 'index.ts')], {
    env: { PATH: process.env.PATH, ...simulatorEnv(sim), PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  for await (const chunk of server.stdout!) {
    out += chunk
    const url = /Listening on (http:\/\/\S+)/.exec(out)?.[1]
    if (url) return url
  }
  throw new Error(`the server exited before listening: ${out}`)
}

beforeAll(async () => {
  if (!chromium.available) return
  await build({ root, logLevel: 'error' })
  sim = await startSimulator()
  origin = await startServer()
  browser = await chromium.launch()
})

afterAll(async () => {
  await browser?.close()
  if (server && server.exitCode === null) {
    server.kill()
    await once(server, 'exit')
  }
  await sim?.stop()
})

describe.skipIf(!chromium.available)('the Vite + React example', () => {
  test('choose a folder in the selector, upload a file through the proxy: the asset is saved there with its bytes; the browser never sees the open API token', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(String(e)))
    // Everything the page sends and receives, to look for the token in afterwards.
    const seen: Promise<string>[] = []
    page.on('request', (request) =>
      seen.push(
        Promise.resolve(`${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`),
      ),
    )
    page.on('response', (response) =>
      seen.push(
        response.text().then(
          (text) => `${JSON.stringify(response.headers())} ${text}`,
          () => '',
        ),
      ),
    )
    await page.goto(origin)
    await page.getByRole('button', { name: 'Choose a folder' }).click()
    const frame = await (await page.waitForSelector('iframe')).contentFrame()
    await frame!
      .getByRole('treeitem', { name: 'Acme Campaigns', exact: true })
      .locator(':scope > .row')
      .click()
    await frame!.getByRole('button', { name: 'Confirm' }).click()
    await expect.poll(() => page.textContent('#folder')).toBe(`Folder ${ACME_CAMPAIGNS} (team space 1001)`)

    const bytes = randomBytes(700 * 1024)
    const before = sim.control.snapshot().materials.length
    await page.setInputFiles('input[type="file"]', {
      name: 'brochure.pdf',
      mimeType: 'application/pdf',
      buffer: bytes,
    })
    await page.waitForSelector('#uploads li[data-status="done"]', { timeout: 60_000 })
    const [saved] = sim.control.snapshot().materials.slice(before)
    expect(saved).toMatchObject({
      name: 'brochure',
      extension: 'pdf',
      folderId: ACME_CAMPAIGNS,
      size: bytes.length,
    })
    const href = await page.locator('#uploads li a').getAttribute('href')
    // The service's own link (the simulator's object store), not one on the proxy's host.
    expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    expect(sha256(new Uint8Array(await (await fetch(href!)).arrayBuffer()))).toBe(sha256(bytes))
    expect(await page.textContent('#summary')).toContain('1 of 1 saved')
    expect(errors).toEqual([])
    const traffic = await Promise.all(seen)
    expect(traffic.length).toBeGreaterThan(5)
    expect(traffic.filter((entry) => entry.includes(sim.credentials.openToken.value))).toEqual([])
    await page.close()
  })
})
