/**
 * A peer: the PostgreSQL webhook endpoint a user would write instead of the SDK's receiver.
 * Hono + @hono/node-server, a pg Pool (its defaults), and per request one
 * `INSERT ... ON CONFLICT DO NOTHING` of the body as text keyed by its eventId, awaited before
 * the 200 (acknowledged after its commit). No processing. Started by the webhooks bench like the
 * no-op server: `hono-pg.ts <token> <postgres url> <schema>`; prints `listening <port>`; GET /cpu
 * answers this process's CPU time (user + system, µs).
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import pg from 'pg'

const [token, url, schema] = process.argv.slice(2) as [string, string, string]
const table = `"${schema}"."peer_events"`
const pool = new pg.Pool({ connectionString: url })
await pool.query(
  `CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, body text NOT NULL, received_at timestamptz NOT NULL DEFAULT now())`,
)

const app = new Hono()
app.get('/cpu', (c) => {
  const { user, system } = process.cpuUsage()
  return c.json({ micros: user + system })
})
app.post('/webhooks/:token', async (c) => {
  if (c.req.param('token') !== token) return c.json({ error: 'unknown endpoint' }, 404)
  const body = await c.req.text()
  const event = JSON.parse(body) as { eventId?: unknown }
  if (typeof event.eventId !== 'string') return c.json({ error: 'no eventId' }, 400)
  await pool.query(`INSERT INTO ${table} (key, body) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
    event.eventId,
    body,
  ])
  return c.json({ received: true })
})

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  process.stdout.write(`listening ${info.port}\n`)
})
process.on('SIGTERM', () => {
  server.close()
  void pool.end().finally(() => process.exit(0))
})
