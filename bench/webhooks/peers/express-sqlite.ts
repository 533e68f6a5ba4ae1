/**
 * A peer: the SQLite webhook endpoint a user would write instead of the SDK's receiver. Express
 * (express.text for the body), node:sqlite's DatabaseSync in WAL mode with synchronous=FULL,
 * and per request one synchronous `INSERT ... ON CONFLICT DO NOTHING` of the body as text keyed
 * by its eventId: one transaction (and one fsync) per request, committed before the 200. No
 * processing. Started by the webhooks bench like the no-op server: `express-sqlite.ts <token>`;
 * prints `listening <port>`; GET /cpu answers this process's CPU time (user + system, µs).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import express from 'express'

const [token] = process.argv.slice(2) as [string]
const dir = mkdtempSync(join(tmpdir(), 'webhooks-peer-'))
const db = new DatabaseSync(join(dir, 'events.db'))
db.exec('PRAGMA journal_mode = WAL')
db.exec('PRAGMA synchronous = FULL')
db.exec(
  'CREATE TABLE IF NOT EXISTS events (key TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL)',
)
const insert = db.prepare(
  'INSERT INTO events (key, body, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
)

const app = express()
app.get('/cpu', (_req, res) => {
  const { user, system } = process.cpuUsage()
  res.json({ micros: user + system })
})
app.post('/webhooks/:token', express.text({ type: '*/*', limit: '1mb' }), (req, res) => {
  if (req.params.token !== token) {
    res.status(404).json({ error: 'unknown endpoint' })
    return
  }
  const body = req.body as string
  const event = JSON.parse(body) as { eventId?: unknown }
  if (typeof event.eventId !== 'string') {
    res.status(400).json({ error: 'no eventId' })
    return
  }
  insert.run(event.eventId, body, Date.now())
  res.json({ received: true })
})

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`)
})
process.on('SIGTERM', () => {
  server.close()
  db.close()
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
})
