/**
 * How big the inbox grows per million events, on SQLite and on PostgreSQL (`POSTGRES_URL`,
 * default the local database `test`; skipped when unreachable). Not part of `pnpm bench`. Run
 * after `pnpm build`:
 *
 *     node bench/webhooks/inbox-size.ts [--small 10000] [--large 40000]
 *
 * For each store, `--small` and then `--large` events (the benches' asset event, about 450 bytes
 * of body each, distinct keys) are stored through the store API and processed (claimed, then
 * settled done), as a receiver leaves them. The size on disk is then read: the SQLite file once
 * the store is closed (WAL checkpointed); on PostgreSQL `pg_total_relation_size` (table, TOAST and
 * indexes) as written, then after `VACUUM FULL`. As written, each event has left three row
 * versions (stored, claimed, done) until autovacuum makes the older two reusable space: the upper
 * bound. Compacted, one row and its index entries: the lower bound, which a table under
 * autovacuum approaches as new rows reuse the space. The growth per event is the difference
 * between the two sizes divided by the difference in events (what one more event costs, without
 * the fixed cost of an empty table), then multiplied by a million: the figure scales linearly,
 * which running two sizes shows. Finally every done event is pruned and the size read again (on
 * PostgreSQL after a plain VACUUM): the space is kept for new rows rather than given back.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { postgresStore, sqliteStore, type WebhookStore } from '@service-sdk/webhooks'
import pg from 'pg'
import { eventBody } from './event-body.ts'

const { values } = parseArgs({
  options: { small: { type: 'string', default: '10000' }, large: { type: 'string', default: '40000' } },
})
const SMALL = Number(values.small)
const LARGE = Number(values.large)
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const MiB = 1024 * 1024

/** Stores `count` events and processes them, as a receiver would. */
async function fill(store: WebhookStore, count: number): Promise<number> {
  let bodyBytes = 0
  for (let done = 0; done < count; ) {
    const group = Array.from({ length: Math.min(500, count - done) }, () => eventBody('size'))
    await Promise.all(
      group.map((body) => {
        bodyBytes += Buffer.byteLength(body)
        return store.insert({
          key: JSON.parse(body).eventId as string,
          eventType: 'MATERIAL_DELETED',
          body,
          receivedAt: 1,
        })
      }),
    )
    done += group.length
    const claimed = await store.claim({ owner: 'size', limit: group.length, now: 2, leaseMs: 60_000 })
    await Promise.all(claimed.map((e) => store.settle(e.key, 'size', { status: 'done', at: 3 })))
  }
  return bodyBytes / count
}

async function sqlite(dir: string, count: number) {
  const file = join(dir, `inbox-${count}.db`)
  const store = sqliteStore(file)
  const body = await fill(store, count)
  await store.close()
  const size = statSync(file).size
  const pruning = sqliteStore(file)
  await pruning.prune({ before: 4 })
  await pruning.close()
  return { body, size, afterPrune: statSync(file).size }
}

async function postgres(admin: pg.Pool, schema: string, count: number) {
  const table = `inbox_${count}`
  const store = postgresStore(PG_URL, { schema, table })
  const body = await fill(store, count)
  const size = async () => {
    const { rows } = await admin.query<{ n: string }>('SELECT pg_total_relation_size($1::regclass) AS n', [
      `"${schema}".${table}`,
    ])
    return Number(rows[0]!.n)
  }
  const written = await size()
  await admin.query(`VACUUM FULL "${schema}".${table}`)
  const compacted = await size()
  await store.prune({ before: 4 })
  await admin.query(`VACUUM "${schema}".${table}`)
  const afterPrune = await size()
  await store.close()
  return { body, size: compacted, written, afterPrune }
}

function report(
  name: string,
  small: { size: number; body: number },
  large: { size: number; afterPrune: number },
) {
  const perEvent = (large.size - small.size) / (LARGE - SMALL)
  console.log(
    `${name}: ${SMALL} events ${(small.size / MiB).toFixed(1)} MiB, ${LARGE} events ${(large.size / MiB).toFixed(1)} MiB: ` +
      `${perEvent.toFixed(0)} bytes per event (body ${small.body.toFixed(0)} bytes), ` +
      `${((perEvent * 1e6) / MiB).toFixed(0)} MiB per million events; ` +
      `after pruning them all ${(large.afterPrune / MiB).toFixed(1)} MiB`,
  )
}

const dir = mkdtempSync(join(tmpdir(), 'webhooks-size-'))
try {
  report('sqliteStore', await sqlite(dir, SMALL), await sqlite(dir, LARGE))
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const admin = new pg.Pool({ connectionString: PG_URL, max: 1 })
const schema = `inbox_size_${process.pid}`
try {
  await admin.query('SELECT 1')
  const small = await postgres(admin, schema, SMALL)
  const large = await postgres(admin, schema, LARGE)
  report(
    'postgresStore as written (before autovacuum)',
    { ...small, size: small.written },
    { ...large, size: large.written },
  )
  report('postgresStore compacted (VACUUM FULL)', small, large)
} catch (error) {
  console.log(`postgresStore: skipped (${(error as Error).message})`)
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})
  await admin.end()
}
