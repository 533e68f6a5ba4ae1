// The inbox console in real Chromium, mounted on Hono and on Express, over a SQLite file and a
// PostgreSQL schema filled by a real receiver over HTTP: what an operator sees and does, what a
// stranger and a forged request get, and that no answer ever carries a secret.
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { chromiumOrSkip, postgresOrSkip } from '@service-sdk/testkit'
import express from 'express'
import { Hono } from 'hono'
import pg from 'pg'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhooksNode } from '../src/adapters/node.ts'
import { consoleNode, createInboxConsole, type InboxConsole } from '../src/console.ts'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { postgresStore } from '../src/stores/postgres/postgres.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import type { WebhookStore } from '../src/stores/store.ts'

const chromium = chromiumOrSkip()
const postgres = await postgresOrSkip()
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** The size budget of the page, its script and its style together (uncompressed). */
const MAX_CONSOLE_BYTES = 40 * 1024

const TOKEN = generateWebhookToken()
/** A password in the database URL: trust auth ignores it, and no answer may show it. */
const DB_PASSWORD = `pw-${randomBytes(9).toString('hex')}`
const SESSION = randomBytes(16).toString('hex')
const LONG_ID = '1951438207513255936'
/** A key HTML cannot carry as is (a NUL, a lone surrogate): shown escaped, acted on exactly. */
const HOSTILE = 'dead-\u0000\ud800'
/** Markup in a key and a type, as a sender may put there: shown as text, never run. */
const MARKUP_KEY = '<img src=x onerror="window.__pwned=1">'
const MARKUP_TYPE = '"><script>window.__pwned=2</script>'
const work = mkdtempSync(join(tmpdir(), 'webhooks-console-'))
const shots = join(work, 'screenshots')
mkdirSync(shots)
const schema = `console_${randomBytes(5).toString('hex')}`

let browser: Browser | undefined
beforeAll(async () => {
  if (chromium.available) browser = await chromium.launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  if (postgres.available) {
    const admin = new pg.Client({ connectionString: postgres.url })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await admin.end()
  }
  if (!process.env.KEEP_SCREENSHOTS) rmSync(work, { recursive: true, force: true })
  else console.log(`screenshots in ${shots}`)
})

const authorize = (request: Request) => (request.headers.get('cookie') ?? '').includes(`session=${SESSION}`)

interface Running {
  url: string
  receiver: WebhookReceiver
  /** Handler runs by key. */
  runs: Map<string, number>
  /** Keys whose handler throws (with the token and the database URL in its message). */
  failing: Set<string>
  close(): Promise<void>
}

const stores: Array<[string, (n: number) => WebhookStore]> = [
  ['SQLite', (n) => sqliteStore(join(work, `inbox-${n}.sqlite`))],
]
if (postgres.available) {
  const url = new URL(postgres.url)
  url.password = DB_PASSWORD
  stores.push(['PostgreSQL', (n) => postgresStore(url.href, { schema, table: `inbox_${n}` })])
}

type Mount = (inbox: InboxConsole, receiver: WebhookReceiver) => Server
const frameworks: Array<[string, Mount]> = [
  [
    'Hono',
    (inbox, receiver) => {
      const app = new Hono()
      app.all('/inbox/*', (c) => inbox.fetch(c.req.raw))
      app.post('/webhooks/:token', (c) => receiver.fetch(c.req.raw))
      return createServer(getRequestListener(app.fetch))
    },
  ],
  [
    'Express',
    (inbox, receiver) => {
      const app = express()
      app.post('/webhooks/:token', webhooksNode(receiver))
      app.use(express.json())
      app.use('/inbox', consoleNode(inbox))
      return createServer(app)
    },
  ],
]

let made = 0
async function start(mount: Mount, openStore: (n: number) => WebhookStore): Promise<Running> {
  const store = openStore(++made)
  const runs = new Map<string, number>()
  const failing = new Set<string>()
  const receiver = createWebhookReceiver({
    token: TOKEN,
    store,
    processing: { retry: { maxRetries: 0, initialDelayMs: 10, maxDelayMs: 10 }, pollIntervalMs: 50 },
  })
  receiver.onAny(async (_event, { key }) => {
    runs.set(key, (runs.get(key) ?? 0) + 1)
    if (failing.has(key))
      throw new Error(`refused by ${TOKEN} at postgres://app:${DB_PASSWORD}@db.internal/app`)
  })
  const inbox = createInboxConsole({ receiver, authorize, pageSize: 4, secrets: [TOKEN, DB_PASSWORD] })
  const server = mount(inbox, receiver).listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    receiver,
    runs,
    failing,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await receiver.close()
    },
  }
}

/** Ten events over HTTP: a 19-digit id, a long key, two dead letters, the rest done. */
async function fill(app: Running): Promise<void> {
  const deliveries = [
    `{"eventId":${LONG_ID},"eventType":"MATERIAL_DELETED","eventTime":1753946835010,"payload":{"materialIds":[${LONG_ID}],"deleteAction":"RECYCLE"}}`,
    ...Array.from({ length: 6 }, (_, i) =>
      JSON.stringify({
        eventId: `added-${i}`,
        eventType: 'MATERIAL_ADDED_TO_FOLDER',
        eventTime: String(1753946835010 + i),
        payload: { materialIds: [`${i}`], folderIds: ['77'] },
      }),
    ),
    JSON.stringify({
      eventId: 'dead-1',
      eventType: 'MATERIAL_DELETED',
      payload: { deleteAction: 'ARCHIVE' },
    }),
    JSON.stringify({ eventId: 'dead-2', eventType: 'MATERIAL_DELETED', payload: {} }),
    JSON.stringify({ eventId: HOSTILE, eventType: 'MATERIAL_DELETED', payload: {} }),
    JSON.stringify({
      eventId: MARKUP_KEY,
      eventType: MARKUP_TYPE,
      payload: { note: '</pre><script>window.__pwned=3</script>' },
    }),
    JSON.stringify({ eventId: `long-${'x'.repeat(300)}`, eventType: 'MATERIAL_DELETED', payload: {} }),
  ]
  app.failing.add('dead-1').add('dead-2').add(HOSTILE)
  for (const body of deliveries) {
    const answer = await fetch(`${app.url}/webhooks/${TOKEN}`, { method: 'POST', body })
    expect(answer.status).toBe(200)
  }
  await app.receiver.drain()
  expect(await app.receiver.events.counts()).toMatchObject({ done: 9, dead: 3, pending: 0 })
}

/** Every body the browser received, for the secret scan. */
function recordBodies(page: Page, bodies: string[]): void {
  page.on('response', (response) => {
    response.text().then(
      (text) => bodies.push(text),
      () => {},
    )
  })
}

async function noHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }))
  expect(widths.scroll).toBeLessThanOrEqual(widths.view)
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's policy (no inline script) does not apply.
  await page.evaluate(axeSource)
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run(),
  )) as { violations: Array<{ id: string; impact: string; nodes: unknown[] }> }
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`)
}

for (const [storeName, openStore] of stores) {
  for (const [frameworkName, mount] of frameworks) {
    describe.skipIf(!chromium.available)(`the console on ${frameworkName} over ${storeName}`, () => {
      let app: Running
      const bodies: string[] = []
      beforeAll(async () => {
        app = await start(mount, openStore)
        await fill(app)
      }, 60_000)
      afterAll(async () => {
        await app?.close()
      })

      const openPage = async (path: string, width = 1280): Promise<Page> => {
        const context = await browser!.newContext({ viewport: { width, height: 900 } })
        await context.addCookies([{ name: 'session', value: SESSION, url: app.url }])
        const page = await context.newPage()
        recordBodies(page, bodies)
        const violations: string[] = []
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text())
        })
        ;(page as Page & { cspViolations?: string[] }).cspViolations = violations
        await page.goto(`${app.url}${path}`)
        return page
      }

      it('refuses everything without the session authorize asks for, and a console without authorize', async () => {
        for (const path of [
          '/inbox/',
          '/inbox/api/summary',
          '/inbox/assets/console.js',
          '/inbox/event?key=dead-1',
        ]) {
          const answer = await fetch(`${app.url}${path}`)
          bodies.push(await answer.text())
          expect([path, answer.status]).toEqual([path, 401])
        }
        const post = await fetch(`${app.url}/inbox/api/requeue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ allDead: true }),
        })
        expect(post.status).toBe(401)
        expect(() => createInboxConsole({ receiver: app.receiver } as never)).toThrow(
          expect.objectContaining({ code: 'validation_error' }),
        )
        expect((await app.receiver.events.counts()).dead).toBe(3)
      })

      it('lists, filters by status and type, pages, and opens an event with every digit of its id', async () => {
        const page = await openPage('/inbox/')
        await expect(page.locator('.count-done dd').textContent()).resolves.toBe('9')
        await expect(page.locator('.count-dead dd').textContent()).resolves.toBe('3')
        // Paging: four a page, every event once.
        const seen: string[] = []
        for (;;) {
          seen.push(...(await page.locator('td.key a').allTextContents()))
          const next = page.getByRole('link', { name: 'Next page' })
          if ((await next.count()) === 0) break
          await next.click()
        }
        expect(seen).toHaveLength(12)
        expect(new Set(seen).size).toBe(12)
        expect(seen).toContain(JSON.stringify(HOSTILE))
        expect(seen).toContain(LONG_ID)
        // Filters: the form, with the keyboard.
        await page.goto(`${app.url}/inbox/`)
        await page.getByRole('combobox', { name: 'Status' }).selectOption('dead')
        await page.getByRole('button', { name: 'Show' }).press('Enter')
        await page.waitForURL(/status=dead/)
        expect(await page.locator('td.key a').allTextContents()).toEqual([
          JSON.stringify(HOSTILE),
          'dead-2',
          'dead-1',
        ])
        await page.goto(`${app.url}/inbox/?type=MATERIAL_ADDED_TO_FOLDER&order=oldest`)
        expect(await page.locator('td.key a').allTextContents()).toEqual([
          'added-0',
          'added-1',
          'added-2',
          'added-3',
        ])
        // One event: its body as sent (no rounding of the 19-digit id), warnings, error.
        await page.goto(`${app.url}/inbox/?order=oldest`)
        await page.getByRole('link', { name: LONG_ID, exact: true }).click()
        await page.waitForURL(/\/inbox\/event\?key=/)
        const body = await page.locator('pre.body').textContent()
        expect(body).toContain(`"eventId": ${LONG_ID}`)
        expect(body).toContain(`"materialIds": [\n      ${LONG_ID}\n    ]`)
        await page.goto(`${app.url}/inbox/event?key=dead-1`)
        await expect(page.locator('pre.error-text').textContent()).resolves.toContain('[REDACTED]')
        await expect(page.locator('main').textContent()).resolves.toContain('payload.deleteAction')
        expect((page as Page & { cspViolations?: string[] }).cspViolations).toEqual([])
        await page.context().close()
      }, 60_000)

      it('requeues dead letters from the list (keyboard), a hostile key exactly, and they run', async () => {
        app.failing.delete('dead-1')
        app.failing.delete(HOSTILE)
        const page = await openPage('/inbox/?status=dead')
        for (const label of ['Select dead-1', `Select ${JSON.stringify(HOSTILE)}`]) {
          await page.getByLabel(label, { exact: true }).focus()
          await page.keyboard.press('Space')
        }
        await page.getByRole('button', { name: 'Requeue selected dead events' }).focus()
        await page.keyboard.press('Enter')
        await expect
          .poll(() => page.locator('#status').textContent(), { timeout: 10_000 })
          .toBe('Requeued 2 events.')
        for (const key of ['dead-1', HOSTILE]) {
          await expect
            .poll(async () => (await app.receiver.events.get(key))?.status, { timeout: 10_000 })
            .toBe('done')
          expect(app.runs.get(key)).toBe(2)
        }
        expect((await app.receiver.events.get('dead-2'))?.status).toBe('dead')
        await page.context().close()
      }, 30_000)

      it('replays a done event: the same event runs again, still one event under its key', async () => {
        const before = app.runs.get('added-3') ?? 0
        const page = await openPage('/inbox/event?key=added-3')
        await page.getByRole('button', { name: 'Replay' }).click()
        await expect
          .poll(() => page.locator('#status').textContent(), { timeout: 10_000 })
          .toBe('Replayed 1 event.')
        await expect.poll(() => app.runs.get('added-3'), { timeout: 10_000 }).toBe(before + 1)
        await expect.poll(async () => (await app.receiver.events.get('added-3'))?.status).toBe('done')
        // A late re-delivery is still a duplicate.
        const again = await fetch(`${app.url}/webhooks/${TOKEN}`, {
          method: 'POST',
          body: JSON.stringify({ eventId: 'added-3', eventType: 'MATERIAL_ADDED_TO_FOLDER' }),
        })
        expect(await again.json()).toEqual({ received: true, duplicate: true })
        await page.context().close()
      }, 30_000)

      it('shows markup a sender put in a key, a type and a body as text, and runs none of it', async () => {
        const page = await openPage(`/inbox/?type=${encodeURIComponent(MARKUP_TYPE)}`)
        await expect(page.locator('td.key a').allTextContents()).resolves.toEqual([MARKUP_KEY])
        await page.getByRole('link', { name: MARKUP_KEY, exact: true }).click()
        await page.waitForURL(/\/inbox\/event\?key=/)
        await expect(page.locator('pre.body').textContent()).resolves.toContain(
          '</pre><script>window.__pwned=3</script>',
        )
        await expect(page.locator('.facts').textContent()).resolves.toContain(MARKUP_TYPE)
        expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
        expect(await page.locator('main img, main script').count()).toBe(0)
        await page.context().close()
      })

      it('reads without JavaScript: the filter form, the pages, an event', async () => {
        const context = await browser!.newContext({ javaScriptEnabled: false })
        await context.addCookies([{ name: 'session', value: SESSION, url: app.url }])
        const page = await context.newPage()
        await page.goto(`${app.url}/inbox/`)
        await page.getByRole('combobox', { name: 'Status' }).selectOption('done')
        await page.getByRole('button', { name: 'Show' }).click()
        await page.waitForURL(/status=done/)
        const first = await page.locator('td.key a').allTextContents()
        expect(first).toHaveLength(4)
        await page.getByRole('link', { name: 'Next page' }).click()
        const second = await page.locator('td.key a').allTextContents()
        expect(second.length).toBeGreaterThan(0)
        expect(second.filter((k) => first.includes(k))).toEqual([])
        await page.getByRole('link', { name: second[0]!, exact: true }).click()
        await expect(page.locator('pre.body').textContent()).resolves.toContain('"eventId"')
        await context.close()
      })

      it('refuses a cross-origin or non-JSON action even with the session cookie', async () => {
        const cookie = `session=${SESSION}`
        const forged = await fetch(`${app.url}/inbox/api/requeue`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', origin: 'https://evil.example' },
          body: JSON.stringify({ allDead: true }),
        })
        expect(forged.status).toBe(403)
        const form = await fetch(`${app.url}/inbox/api/requeue`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'text/plain', origin: app.url },
          body: JSON.stringify({ allDead: true }),
        })
        expect(form.status).toBe(415)
        const site = await fetch(`${app.url}/inbox/api/prune`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
          body: JSON.stringify({ olderThanMs: 0 }),
        })
        expect(site.status).toBe(403)
        bodies.push(await forged.text(), await form.text(), await site.text())
        expect((await app.receiver.events.get('dead-2'))?.status).toBe('dead')
        expect((await app.receiver.events.counts()).done).toBe(11)
      })

      it('has no serious or critical axe violation, and no horizontal scroll at 390 and 1280 px', async () => {
        for (const width of [390, 1280]) {
          for (const [name, path] of [
            ['list', '/inbox/'],
            ['dead', '/inbox/?status=dead'],
            ['event', `/inbox/event?key=${encodeURIComponent(`long-${'x'.repeat(300)}`)}`],
            ['body', `/inbox/event?key=${LONG_ID}`],
          ] as const) {
            const page = await openPage(path, width)
            expect([name, width, await axeViolations(page)]).toEqual([name, width, []])
            await noHorizontalScroll(page)
            await page.screenshot({
              path: join(shots, `${frameworkName}-${storeName}-${name}-${width}.png`),
              fullPage: true,
            })
            await page.context().close()
          }
        }
      }, 120_000)

      it('never shows the token or the database password in any answer', async () => {
        const cookie = `session=${SESSION}`
        for (const path of [
          '/inbox/api/events?status=dead',
          '/inbox/api/event?key=dead-2',
          '/inbox/event?key=dead-2',
          '/inbox/api/summary',
          '/inbox/assets/console.css',
        ]) {
          const answer = await fetch(`${app.url}${path}`, { headers: { cookie } })
          expect(answer.status).toBe(200)
          bodies.push(await answer.text())
        }
        const dead = await app.receiver.events.get('dead-2')
        expect(dead?.lastError).toContain(DB_PASSWORD) // the handler's error names it; no answer does
        expect(bodies.length).toBeGreaterThan(20)
        for (const body of bodies) {
          expect(body).not.toContain(TOKEN)
          expect(body).not.toContain(DB_PASSWORD)
        }
      })
    })
  }
}

describe('the console without a browser', () => {
  it('answers every request with no-store, nosniff, no referrer, no framing; the page with its policy', async () => {
    const inbox = createInboxConsole({
      store: sqliteStore(join(work, 'headers.sqlite')),
      authorize: () => true,
    })
    for (const path of ['/inbox/', '/inbox/assets/console.js', '/inbox/api/summary', '/inbox/nothing']) {
      const answer = await inbox.fetch(new Request(`http://console.test${path}`))
      expect([
        path,
        answer.headers.get('cache-control'),
        answer.headers.get('x-content-type-options'),
      ]).toEqual([path, 'no-store', 'nosniff'])
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer')
      expect(answer.headers.get('x-frame-options')).toBe('DENY')
    }
    const page = await inbox.fetch(new Request('http://console.test/inbox/'))
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
  })

  it('refuses when authorize throws (500), sends the Response authorize gives, and answers a store failure 503 without its text', async () => {
    const store = sqliteStore(join(work, 'refusals.sqlite'))
    const throwing = createInboxConsole({
      store,
      authorize: () => {
        throw new Error(`session store down at postgres://u:${DB_PASSWORD}@db`)
      },
    })
    const thrown = await throwing.fetch(new Request('http://console.test/inbox/api/summary'))
    expect(thrown.status).toBe(500)
    expect(await thrown.text()).not.toContain(DB_PASSWORD)
    const redirecting = createInboxConsole({
      store,
      authorize: () => new Response(null, { status: 302, headers: { location: '/login' } }),
    })
    const redirected = await redirecting.fetch(new Request('http://console.test/inbox/'))
    expect([redirected.status, redirected.headers.get('location')]).toEqual([302, '/login'])
    // A store that cannot page is refused at creation, as a console without authorize is.
    const { page: _page, ...cannotPage } = memoryStoreForTests()
    expect(() => createInboxConsole({ store: cannotPage, authorize: () => true })).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    )
    const open = createInboxConsole({ store, authorize: () => true })
    await store.close()
    for (const path of ['/inbox/api/summary', '/inbox/']) {
      const failed = await open.fetch(new Request(`http://console.test${path}`))
      expect(failed.status).toBe(503)
      expect(await failed.text()).not.toMatch(/closed|sqlite/i)
    }
  })
})

describe('the console API, by its limits', () => {
  it('finds a key a URL cannot carry by its JSON form; refuses 1,001 keys (400) and a body over 4 MiB (413)', async () => {
    const store = memoryStoreForTests()
    await store.insert({
      key: HOSTILE,
      eventType: 'MATERIAL_DELETED',
      body: '{"eventId":"x"}',
      receivedAt: 1,
    })
    const inbox = createInboxConsole({ store, authorize: () => true })
    const found = await inbox.fetch(
      new Request(`http://console.test/inbox/api/event?json=${encodeURIComponent(JSON.stringify(HOSTILE))}`),
    )
    expect(((await found.json()) as { event: { key: string } }).event.key).toBe(HOSTILE)
    const action = (body: string) =>
      inbox.fetch(
        new Request('http://console.test/inbox/api/requeue', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }),
      )
    const many = await action(JSON.stringify({ keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) }))
    expect([many.status, ((await many.json()) as { error: { code: string } }).error.code]).toEqual([
      400,
      'validation_error',
    ])
    const huge = await action(JSON.stringify({ keys: ['x'.repeat(4 * 1024 * 1024)] }))
    expect(huge.status).toBe(413)
    expect((await action('not json')).status).toBe(400)
  })
})

describe('the console page, by weight', () => {
  it(`serves its page, script and style in at most ${MAX_CONSOLE_BYTES / 1024} KiB`, async () => {
    const inbox = createInboxConsole({ store: sqliteStore(join(work, 'size.sqlite')), authorize: () => true })
    let total = 0
    for (const path of ['/inbox/', '/inbox/assets/console.js', '/inbox/assets/console.css']) {
      const answer = await inbox.fetch(new Request(`http://console.test${path}`))
      expect(answer.status).toBe(200)
      total += (await answer.arrayBuffer()).byteLength
    }
    expect(total).toBeLessThanOrEqual(MAX_CONSOLE_BYTES)
  })
})
