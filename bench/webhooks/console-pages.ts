/**
 * What a page of the inbox costs on a large inbox: the console's and `service-sdk inbox list`'s
 * query (`store.page()`), on SQLite and on PostgreSQL (`POSTGRES_URL`, default the local database
 * `test`; skipped when unreachable). Not part of `pnpm bench`. Run after `pnpm build`:
 *
 *     node bench/webhooks/console-pages.ts [--events 1000000] [--pages 20] [--store sqlite,pg]
 *
 * The inbox is generated in the bench's own SQLite file / PostgreSQL schema by one bulk INSERT
 * (not through HTTP): `--events` events of about 400 bytes, 95% done, 3% dead, 2% pending, six
 * event types, every tenth with one of 1,000 order keys, ten milliseconds apart. Then, for each
 * kind of page the console asks for, `--pages` pages are read one after another (following
 * `next`), each timed; the figures are the median, the 95th percentile and the slowest page, in
 * milliseconds, against the target of 50 ms a page. `counts()` and `oldestPending()` (the figures
 * at the top of every console page) are timed the same way. SQLite gets no ANALYZE (the store
 * never runs one: its page statements name their index); PostgreSQL gets the one autovacuum
 * would have made by then.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { parseArgs } from 'node:util'
import { type PageQuery, postgresStore, sqliteStore, type WebhookStore } from '@service-sdk/webhooks'
import pg from 'pg'

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    pages: { type: 'string', default: '20' },
    store: { type: 'string', default: 'sqlite,pg' },
  },
})
const EVENTS = Number(values.events)
const PAGES = Number(values.pages)
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const T0 = 1_753_946_835_010
const TARGET_MS = 50
const PAD = 'x'.repeat(300)

/** The generated rows, as SQL over `n` (1..count); the same in both databases. */
const ROWS = (n: string) => `'evt-' || ${n},
  CASE ${n} % 6 WHEN 0 THEN 'FOLDER_CONTENT_UPDATE' WHEN 1 THEN 'MATERIAL_INBOUND_COMPLETED'
    WHEN 2 THEN 'MATERIAL_ADDED_TO_FOLDER' WHEN 3 THEN 'MATERIAL_METADATA_UPDATED'
    WHEN 4 THEN 'MATERIAL_VERSION_CHANGED' ELSE 'MATERIAL_DELETED' END,
  '{"eventId":"evt-' || ${n} || '","eventType":"MATERIAL_DELETED","payload":{"materialIds":["' || ${n} || '"],"note":"${PAD}"}}',
  ${T0} + ${n} * 10,
  CASE WHEN ${n} % 100 < 3 THEN 'dead' WHEN ${n} % 100 < 5 THEN 'pending' ELSE 'done' END,
  1, ${T0} + ${n} * 10,
  CASE WHEN ${n} % 100 >= 3 AND ${n} % 100 < 5 THEN NULL ELSE ${T0} + ${n} * 10 + 5 END,
  CASE WHEN ${n} % 100 < 3 THEN 'Error: the handler failed' END,
  CASE WHEN ${n} % 10 = 0 THEN 'folder-' || (${n} % 1000) END`
const COLUMNS =
  'key, event_type, body, received_at, status, attempts, next_attempt_at, finished_at, last_error, order_key'

/** The kinds of page the console asks for. */
const QUERIES: Array<[string, PageQuery]> = [
  ['every event, newest first', {}],
  ['every event, oldest first', { order: 'oldest' }],
  ['dead letters', { status: 'dead' }],
  ['pending, oldest first', { status: 'pending', order: 'oldest' }],
  ['done', { status: 'done' }],
  ['by type', { eventType: 'MATERIAL_DELETED' }],
  ['dead, by type', { status: 'dead', eventType: 'MATERIAL_DELETED' }],
  ['by order key', { orderKey: 'folder-10' }],
  ['from a time (the middle)', { from: T0 + (EVENTS / 2) * 10 }],
]

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now()
  const value = await fn()
  return [value, performance.now() - start]
}

function report(what: string, ms: number[], unit = 'pages'): void {
  const sorted = [...ms].sort((a, b) => a - b)
  const [median, p95, max] = [percentile(sorted, 0.5), percentile(sorted, 0.95), sorted.at(-1)!]
  const verdict = max <= TARGET_MS ? 'ok' : p95 <= TARGET_MS ? 'p95 ok' : 'OVER'
  console.log(
    `  ${what.padEnd(28)} ${String(ms.length).padStart(3)} ${unit.padEnd(5)}  median ${median.toFixed(1).padStart(6)}  p95 ${p95.toFixed(1).padStart(6)}  max ${max.toFixed(1).padStart(6)} ms  ${verdict}`,
  )
}

async function measure(store: WebhookStore): Promise<void> {
  // One page first: connections opened, statements prepared.
  await store.page!({})
  for (const [what, query] of QUERIES) {
    const times: number[] = []
    let cursor: string | undefined
    for (let i = 0; i < PAGES; i++) {
      const [page, ms] = await timed(() => store.page!({ ...query, ...(cursor ? { cursor } : {}) }))
      times.push(ms)
      cursor = page.next
      if (!cursor) break
    }
    report(what, times)
  }
  const counts: number[] = []
  const oldest: number[] = []
  for (let i = 0; i < 5; i++) {
    counts.push((await timed(() => store.counts()))[1])
    oldest.push((await timed(() => store.oldestPending!()))[1])
  }
  report('counts()', counts, 'reads')
  report('oldestPending()', oldest, 'reads')
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-console-'))
  try {
    const file = join(dir, 'inbox.sqlite')
    await sqliteStore(file).close()
    const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite')
    const db: DatabaseSync = new sqlite.DatabaseSync(file)
    const [, fillMs] = await timed(async () =>
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${EVENTS})
        INSERT INTO webhook_events (${COLUMNS}) SELECT ${ROWS('i')} FROM n;`),
    )
    db.close()
    console.log(`SQLite: ${EVENTS.toLocaleString('en')} events generated in ${(fillMs / 1000).toFixed(1)} s`)
    const store = sqliteStore(file)
    await measure(store)
    await store.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function postgres(): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 })
  try {
    await admin.connect()
  } catch {
    console.log(`PostgreSQL: not reachable at ${PG_URL}; skipped`)
    return
  }
  const schema = `bench_console_${process.pid}`
  try {
    const created = postgresStore(PG_URL, { schema })
    await created.counts()
    await created.close()
    const table = `"${schema}".webhook_events`
    const [, fillMs] = await timed(async () => {
      await admin.query(
        `INSERT INTO ${table} (${COLUMNS}) SELECT ${ROWS('i')} FROM generate_series(1, ${EVENTS}) AS i`,
      )
      await admin.query(`VACUUM ANALYZE ${table}`)
    })
    console.log(
      `PostgreSQL: ${EVENTS.toLocaleString('en')} events generated in ${(fillMs / 1000).toFixed(1)} s`,
    )
    const store = postgresStore(PG_URL, { schema })
    await measure(store)
    await store.close()
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})
    await admin.end()
  }
}

const stores = (values.store ?? '').split(',')
if (stores.includes('sqlite')) await sqlite()
if (stores.includes('pg')) await postgres()
