// Every store the package ships, fresh for each call, for tests that hold each to the same rule:
// memory, SQLite (worker thread, and `thread: 'main'` when asked) and PostgreSQL (when reachable;
// a schema of the run's own, dropped after the file's tests).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll } from 'vitest'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { postgresStore } from '../src/stores/postgres/postgres.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import type { WebhookStore } from '../src/stores/store.ts'

export type StoreMaker = [name: string, open: () => WebhookStore]

/** The stores, each `open()` a new one (a new file, a new table); cleaned up after all tests. */
export async function everyStore(
  prefix: string,
  options: { mainThread?: boolean } = {},
): Promise<StoreMaker[]> {
  const postgres = await postgresOrSkip()
  const schema = `webhooks_${prefix}_${randomBytes(6).toString('hex')}`
  const dir = mkdtempSync(join(tmpdir(), `webhooks-${prefix}-`))
  const admin = new pg.Pool({ connectionString: postgres.url, max: 2 })
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true })
    if (postgres.available) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
    await admin.end()
  })
  let n = 0
  const stores: StoreMaker[] = [
    ['memoryStoreForTests', () => memoryStoreForTests()],
    ['sqliteStore', () => sqliteStore(join(dir, `s${++n}.db`))],
  ]
  if (options.mainThread)
    stores.push([
      "sqliteStore({ thread: 'main' })",
      () => sqliteStore(join(dir, `s${++n}.db`), { thread: 'main' }),
    ])
  if (postgres.available)
    stores.push(['postgresStore', () => postgresStore(postgres.url, { schema, table: `t${++n}` })])
  return stores
}
