/**
 * The server under load, in its own process: `receiver` (the SDK's receiver, SQLite store with
 * synchronous FULL, a no-op handler, processing on), `pg` (an ingest-only receiver on
 * postgresStore: `server.ts pg <token> <url> <schema>`) or `noop` (a Hono handler that reads the
 * body and answers 200). All on Hono + @hono/node-server. Prints `listening <port>`, and the
 * receiver `processed <n>` at every 1,000th event processed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createWebhookReceiver, postgresStore, sqliteStore } from '@service-sdk/webhooks'
import { webhooksHono } from '@service-sdk/webhooks/hono'
import { Hono } from 'hono'

const [mode, token, pgUrl, pgSchema] = process.argv.slice(2) as [
  'receiver' | 'pg' | 'noop',
  string,
  string,
  string,
]
const app = new Hono()
// CPU time is what contention on a shared machine distorts least: the bench divides it by requests.
app.get('/cpu', (c) => {
  const { user, system } = process.cpuUsage()
  return c.json({ micros: user + system })
})

/** The receiver's inbox, removed when the server is stopped. */
let inboxDir: string | undefined
if (mode === 'receiver') {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-bench-'))
  inboxDir = dir
  const receiver = createWebhookReceiver({
    token,
    store: sqliteStore(join(dir, 'inbox.db'), {
      synchronous: 'FULL',
      ...(process.env.BENCH_THREAD === 'main' ? { thread: 'main' as const } : {}),
    }),
    processing: { autoStart: process.env.BENCH_PROCESSING !== '0' },
  })
  // Every 1,000th event processed is announced, so that instructions.ts knows the backlog is
  // processed without a request (one would take the HTTP path another way inside its count).
  let processed = 0
  receiver.onAny(() => {
    if (++processed % 1000 === 0) process.stdout.write(`processed ${processed}\n`)
  })
  app.get('/status', async (c) => c.json(await receiver.events.counts()))
  // Whether events wait to be processed, for the bench's polling while the receiver's CPU is
  // measured: two index lookups, where counts() reads the whole status index (about 9 ms of CPU
  // at 150,000 stored events, charged to the receiver ten times a second).
  app.get('/backlog', async (c) => {
    const [pending, processing] = await Promise.all([
      receiver.events.list({ status: 'pending', limit: 1 }),
      receiver.events.list({ status: 'processing', limit: 1 }),
    ])
    return c.json({ backlog: pending.length + processing.length > 0 })
  })
  app.post('/webhooks/:token', webhooksHono(receiver))
} else if (mode === 'pg') {
  const receiver = createWebhookReceiver({
    token,
    store: postgresStore(pgUrl, { schema: pgSchema }),
    processing: false,
  })
  app.get('/status', async (c) => c.json(await receiver.events.counts()))
  app.post('/webhooks/:token', webhooksHono(receiver))
} else {
  app.post('/webhooks/:token', async (c) => {
    await c.req.arrayBuffer()
    return c.json({ received: true })
  })
}

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  process.stdout.write(`listening ${info.port}\n`)
})
process.on('SIGTERM', () => {
  server.close()
  if (inboxDir) rmSync(inboxDir, { recursive: true, force: true })
  process.exit(0)
})
