// The console mounted on Koa, Fastify and a Next.js-style route handler, as the README's one-liners
// say: the page, an action as JSON from the page's own origin, a forged action refused, and 401
// without the session. (Hono and Express are driven in Chromium: console-browser.test.ts.)
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import Fastify from 'fastify'
import Koa from 'koa'
import { afterAll, describe, expect, it } from 'vitest'
import { consoleNode, createInboxConsole, type InboxConsole } from '../src/console.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-console-frameworks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const COOKIE = 'session=let-me-in'
let n = 0

async function inboxWithDeadLetter(): Promise<InboxConsole> {
  const store = sqliteStore(join(dir, `inbox-${++n}.sqlite`))
  await store.insert({
    key: 'dead-1',
    eventType: 'MATERIAL_DELETED',
    body: '{"eventId":"dead-1"}',
    receivedAt: 1,
  })
  const [claimed] = await store.claim({ owner: 'w', limit: 1, now: 2, leaseMs: 1000 })
  await store.settle(claimed!.key, 'w', { status: 'dead', at: 3, error: 'boom' })
  return createInboxConsole({ store, authorize: (request) => request.headers.get('cookie') === COOKIE })
}

type Start = (inbox: InboxConsole) => Promise<{ url: string; close(): Promise<void> }>

const listen = async (server: Server) => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const frameworks: Array<[string, Start]> = [
  [
    'Koa (middleware, before any body parser)',
    async (inbox) => {
      const app = new Koa()
      const listener = consoleNode(inbox)
      app.use(async (ctx, next) => {
        if (!ctx.path.startsWith('/inbox/')) return next()
        ctx.respond = false
        listener(ctx.req, ctx.res)
      })
      const server = createServer(app.callback())
      const url = await listen(server)
      return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
    },
  ],
  [
    'Fastify (a route handing a Web Request over)',
    async (inbox) => {
      const app = Fastify()
      app.all('/inbox/*', async (request, reply) =>
        reply.send(
          await inbox.fetch(
            new Request(`http://${request.host}${request.url}`, {
              method: request.method,
              headers: request.headers as Record<string, string>,
              body: request.method === 'POST' ? JSON.stringify(request.body) : null,
            }),
          ),
        ),
      )
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as AddressInfo
      return { url: `http://127.0.0.1:${port}`, close: () => app.close() }
    },
  ],
  [
    'a Next.js route handler (GET and POST are inbox.fetch)',
    async (inbox) => {
      // What `export const GET = inbox.fetch, POST = inbox.fetch` gives Next: Web requests in, responses out.
      const handlers: Record<string, (request: Request) => Promise<Response>> = {
        GET: inbox.fetch,
        POST: inbox.fetch,
      }
      const server = createServer(
        getRequestListener(
          (request) => handlers[request.method]?.(request) ?? new Response(null, { status: 405 }),
        ),
      )
      const url = await listen(server)
      return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
    },
  ],
]

describe.each(frameworks)('the console on %s', (_, start) => {
  it('serves the page with the session, acts on JSON from its origin, refuses the rest', async () => {
    const running = await start(await inboxWithDeadLetter())
    try {
      const { url } = running
      const page = await fetch(`${url}/inbox/?status=dead`, { headers: { cookie: COOKIE } })
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(await page.text()).toContain('dead-1')
      expect((await fetch(`${url}/inbox/`)).status).toBe(401)
      const forged = await fetch(`${url}/inbox/api/requeue`, {
        method: 'POST',
        headers: { cookie: COOKIE, 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ keys: ['dead-1'] }),
      })
      expect(forged.status).toBe(403)
      const requeued = await fetch(`${url}/inbox/api/requeue`, {
        method: 'POST',
        headers: { cookie: COOKIE, 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ keys: ['dead-1'] }),
      })
      expect([requeued.status, await requeued.json()]).toEqual([200, { requeued: 1 }])
      const summary = await fetch(`${url}/inbox/api/summary`, { headers: { cookie: COOKIE } })
      expect(await summary.json()).toMatchObject({ counts: { pending: 1, dead: 0 } })
    } finally {
      await running.close()
    }
  })
})
