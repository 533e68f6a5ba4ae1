// Every page shape the console and `service-sdk inbox` ask for reads an index on a large inbox,
// never the whole table: the query plans of SQLite and PostgreSQL on 100,000 generated events.
// (What a page costs on a million: bench/webhooks/console-pages.ts.)
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import {
  EDGE_OFFSET,
  type PageDialect,
  type PageShape,
  pageStatements,
  seekStatement,
} from '../src/stores/page-sql.ts'
import { postgresStore } from '../src/stores/postgres/postgres.ts'
import { postgresDialect } from '../src/stores/postgres/postgres-page.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import { sqliteDialect } from '../src/stores/sqlite/sqlite-page.ts'
import type { EventStatus, PageOrder } from '../src/stores/store.ts'

const EVENTS = 100_000
const T0 = 1_753_946_835_010
const dir = mkdtempSync(join(tmpdir(), 'webhooks-plans-'))
const postgres = await postgresOrSkip()
const schema = `plans_${randomBytes(5).toString('hex')}`
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  if (postgres.available) {
    const admin = new pg.Client({ connectionString: postgres.url })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await admin.end()
  }
})

/** The rows of the generated inbox, as SQL over `n` (1..count): mostly done, some dead and pending. */
const GENERATED = (n: string) => `'evt-' || ${n}, 'TYPE_' || (${n} % 6), '{"eventId":"evt-' || ${n} || '"}',
  ${T0} + ${n} * 10,
  CASE WHEN ${n} % 100 < 3 THEN 'dead' WHEN ${n} % 100 < 5 THEN 'pending' ELSE 'done' END,
  1, ${T0} + ${n} * 10, CASE WHEN ${n} % 100 < 5 AND ${n} % 100 >= 3 THEN NULL ELSE ${T0} + ${n} * 10 + 5 END,
  CASE WHEN ${n} % 10 = 0 THEN 'folder-' || (${n} % 1000) END`
const COLUMNS =
  'key, event_type, body, received_at, status, attempts, next_attempt_at, finished_at, order_key'

const shapes: PageShape[] = []
for (const status of [undefined, 'pending', 'processing', 'done', 'dead'] as Array<EventStatus | undefined>)
  for (const order of ['newest', 'oldest'] as PageOrder[])
    for (const [byType, byOrderKey] of [
      [false, false],
      [true, false],
      [false, true],
    ] as const)
      shapes.push({ status, order, byType, byOrderKey })

const name = (s: PageShape) =>
  `${s.status ?? 'any status'}, ${s.order} first${s.byType ? ', by type' : ''}${s.byOrderKey ? ', by order key' : ''}`

/** What each statement is given: a cursor in the middle, an edge, a type, an order key, a limit. */
function values(statement: 'edge' | 'rows', s: PageShape): unknown[] {
  const middle = EVENTS / 2
  if (statement === 'edge') return [middle, EDGE_OFFSET]
  return [
    middle,
    ...(s.byType || s.byOrderKey ? [s.order === 'newest' ? middle - 20_000 : middle + 20_000] : []),
    ...(s.byType ? ['TYPE_3'] : []),
    ...(s.byOrderKey ? ['folder-10'] : []),
    51,
  ]
}

describe('SQLite: every page reads an index', () => {
  it(`on ${EVENTS.toLocaleString('en')} events: no plan scans the table`, async () => {
    const file = join(dir, 'plans.sqlite')
    // The table and its indexes as the store makes them, and no ANALYZE (the store runs none).
    await sqliteStore(file).close()
    const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite')
    const db: DatabaseSync = new sqlite.DatabaseSync(file)
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${EVENTS})
      INSERT INTO webhook_events (${COLUMNS}) SELECT ${GENERATED('i')} FROM n;`)
    const d: PageDialect = sqliteDialect('webhook_events')
    const plan = (sql: string, bound: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(bound as never[])) as Array<{ detail: string }>).map(
        (r) => r.detail,
      )
    for (const s of shapes) {
      const statements = pageStatements(d, s)
      for (const [which, sql] of Object.entries(statements) as Array<['edge' | 'rows', string]>) {
        const details = plan(sql, values(which, s))
        // A full scan of the table reads as "SCAN webhook_events" with no index after it.
        expect([name(s), which, details.filter((d) => /^SCAN webhook_events$/.test(d))]).toEqual([
          name(s),
          which,
          [],
        ])
        expect([
          name(s),
          which,
          details.some((d) => /USING (INDEX|INTEGER PRIMARY KEY|COVERING INDEX)/.test(d)),
        ]).toEqual([name(s), which, true])
      }
    }
    const seek = plan(seekStatement(d), [T0 + 5_000_000])
    expect(seek.filter((d) => /^SCAN webhook_events$/.test(d))).toEqual([])
    db.close()
  }, 60_000)
})

describe.skipIf(!postgres.available)('PostgreSQL: every page reads an index', () => {
  it(`on ${EVENTS.toLocaleString('en')} events: no sequential scan`, async () => {
    const store = postgresStore(postgres.url, { schema })
    await store.counts() // the table and its indexes, as the store makes them
    await store.close()
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    const table = `"${schema}".webhook_events`
    await client.query(
      `INSERT INTO ${table} (${COLUMNS}) SELECT ${GENERATED('i')} FROM generate_series(1, ${EVENTS}) AS i`,
    )
    await client.query(`ANALYZE ${table}`)
    const d = postgresDialect(table)
    const plan = async (sql: string, bound: unknown[]) =>
      (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, bound)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n')
    try {
      for (const s of shapes) {
        for (const [which, sql] of Object.entries(pageStatements(d, s)) as Array<['edge' | 'rows', string]>) {
          const text = await plan(sql, values(which, s))
          expect([name(s), which, /Seq Scan/.test(text)]).toEqual([name(s), which, false])
          expect([name(s), which, /Index (Only )?Scan/.test(text)]).toEqual([name(s), which, true])
        }
      }
      expect(await plan(seekStatement(d), [T0 + 5_000_000])).not.toMatch(/Seq Scan/)
    } finally {
      await client.end()
    }
  }, 60_000)
})
