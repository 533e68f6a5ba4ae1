/**
 * The webhooks bench's PostgreSQL part, in alternating rounds under the same load (autocannon, 64
 * connections split over two processes of each kind): two ingest-only SDK receivers on
 * postgresStore, two no-op Hono processes (HTTP alone) and two Hono + pg peers (one awaited
 * INSERT per request); PostgreSQL's own ceiling, a loop of plain multi-row INSERTs
 * (../pg-ceiling.ts); postgresStore.insert alone in this process. Then the receivers under an
 * open-loop load at half their own measured maximum. CPU per event counts every process: load
 * generator, servers, and the local PostgreSQL's (../pg-cpu.ts). The no-op Hono processes get the
 * same open-loop load, in alternating rounds: the p99 that HTTP alone has on this machine at that
 * rate, beside the receivers'.
 */
import { randomBytes } from 'node:crypto'
import { postgresStore } from '@service-sdk/webhooks'
import pg from 'pg'
import { dropSchema } from '../../lib/postgres.ts'
import { median } from '../../lib/report.ts'
import { eventBody } from '../event-body.ts'
import type { PacedResult } from '../paced-load.ts'
import { insertCeiling } from '../pg-ceiling.ts'
import { type MaxRun, maxRun, pacedRun, warmUp } from './load.ts'
import { type Postgres, type Running, startServer, stopServer } from './servers.ts'

const KINDS = ['receivers', 'noops', 'peers'] as const
type Kind = (typeof KINDS)[number]
const SERVER_KIND = { receivers: 'pg', noops: 'noop', peers: 'hono-pg' } as const

export interface PostgresFigures {
  max: Record<Kind, MaxRun[]>
  ceiling: Array<Awaited<ReturnType<typeof insertCeiling>>>
  alone: number[]
  paced: PacedResult[]
  /** The two no-op Hono processes under the same open-loop load: the floor of the p99. */
  pacedNoops: PacedResult[]
  rate: number
}

export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * postgresStore's own insert path, without HTTP: 64 callers in this process, each inserting the
 * bench's bodies one after another. Events stored per second.
 */
async function storeAlone(database: Postgres, seconds: number): Promise<number> {
  const store = postgresStore(database.url, { schema: database.schema, table: 'store_alone' })
  await store.ping!()
  const until = Date.now() + seconds * 1_000
  let stored = 0
  const caller = async () => {
    while (Date.now() < until) {
      const text = eventBody('bench')
      const key = /"eventId":"([^"]+)"/.exec(text)![1]!
      await store.insert({ key, eventType: 'MATERIAL_DELETED', body: text, receivedAt: Date.now() })
      stored++
    }
  }
  await Promise.all(Array.from({ length: 64 }, caller))
  await store.close()
  return stored / seconds
}

export async function measurePostgres(options: {
  token: string
  url: string
  seconds: number
  rounds: number
}): Promise<PostgresFigures> {
  const { token, seconds } = options
  const database = { url: options.url, schema: `bench_webhooks_${randomBytes(4).toString('hex')}` }
  const store = postgresStore(database.url, { schema: database.schema })
  await store.ping!() // creates the schema and the table
  await store.close()
  const servers: Record<Kind, Running[]> = { receivers: [], noops: [], peers: [] }
  try {
    // One at a time: the peers create their table when they start.
    for (const kind of KINDS)
      for (let i = 0; i < 2; i++) servers[kind].push(await startServer(SERVER_KIND[kind], token, database))
    for (const kind of KINDS) await warmUp(servers[kind], token, false)
    const figures: PostgresFigures = {
      max: { receivers: [], noops: [], peers: [] },
      ceiling: [],
      alone: [],
      paced: [],
      pacedNoops: [],
      rate: 0,
    }
    for (let round = 0; round < options.rounds; round++) {
      const body = () => eventBody('bench')
      figures.ceiling.push(await insertCeiling({ ...database, seconds, body }))
      for (const kind of KINDS)
        figures.max[kind].push(
          await maxRun(servers[kind], token, { seconds, processing: false, postgres: true }),
        )
      figures.alone.push(await storeAlone(database, seconds))
    }
    await Promise.all(servers.peers.splice(0).map(stopServer))
    figures.rate = Math.max(1, Math.round(0.5 * median(figures.max.receivers.map((r) => r.rps))))
    for (let round = 0; round < options.rounds; round++) {
      figures.paced.push(await pacedRun(servers.receivers, token, figures.rate, seconds))
      figures.pacedNoops.push(await pacedRun(servers.noops, token, figures.rate, seconds))
    }
    return figures
  } finally {
    await Promise.all(Object.values(servers).flat().map(stopServer))
    await dropSchema(database.url, database.schema)
  }
}
