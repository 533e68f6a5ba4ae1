/**
 * The cost of ordering per key (`orderBy`): the same events stored and processed by a receiver
 * with `orderBy: 'materialId'` and by one without, alternating rounds in one run, medians; the
 * ratio on/off is what to read. In one process, through `receiver.receive()` (no HTTP: the HTTP
 * cost is the same either way and is measured by webhooks.bench.ts).
 *
 * - ingest: events stored per second (ordering computes the key with the typed parse of each body);
 * - processing, no-op handler, 1,000 assets (many keys): the claim's extra condition;
 * - processing, handler awaiting 2 ms of I/O, 4 assets, concurrency 8: events of one asset wait
 *   for each other, so at most 4 run at once instead of 8 (the price of the guarantee itself).
 *
 *     node bench/webhooks/ordering.ts     (also run at the end of webhooks.bench.ts; BENCH_ORDERING=0 skips it)
 *     ORDERING_EVENTS=5000 ORDERING_ROUNDS=3 by default; PostgreSQL too when POSTGRES_URL (or the local `test`) answers.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  createWebhookReceiver,
  generateWebhookToken,
  postgresStore,
  sqliteStore,
  type WebhookStore,
} from '@service-sdk/webhooks'
import pg from 'pg'

const EVENTS = Number(process.env.ORDERING_EVENTS ?? 5_000)
const ROUNDS = Number(process.env.ORDERING_ROUNDS ?? 3)
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const token = generateWebhookToken()
const url = `https://bench.example/webhooks/${token}`

interface Scenario {
  name: string
  assets: number
  handler: () => Promise<void>
}
const SCENARIOS: Scenario[] = [
  { name: 'no-op handler, 1,000 assets', assets: 1_000, handler: async () => {} },
  { name: 'handler awaits 2 ms, 4 assets', assets: 4, handler: () => sleep(2) },
]

let sequence = 0
function body(assets: number): string {
  const n = sequence++
  const id = 1951438207513255936n + BigInt(n % assets)
  return `{"eventId":"order-${n}","eventType":"MATERIAL_DELETED","eventTime":"${1753946860000 + n}","payload":{"materialIds":[${id}],"deleteAction":"RECYCLE","materials":[{"materialId":${id},"name":"hero","materialType":1,"extension":"png","tagIds":[17],"tagNames":["homepage"],"folderIds":[1949870453162360832],"ownerUserId":1673603133161799680,"createUserId":1673603133161799680}]}}`
}

/** Events stored per second, then processed per second, for one receiver on a fresh store. */
async function round(store: WebhookStore, scenario: Scenario, ordered: boolean) {
  const receiver = createWebhookReceiver({
    token,
    store,
    ...(ordered ? { orderBy: 'materialId' as const } : {}),
    processing: { autoStart: false, concurrency: 8 },
  })
  receiver.onAny(scenario.handler)
  const bodies = Array.from({ length: EVENTS }, () => body(scenario.assets))
  let start = performance.now()
  // 64 requests in flight, as the HTTP benchmark's connections.
  for (let i = 0; i < bodies.length; i += 64) {
    const receipts = await Promise.all(
      bodies
        .slice(i, i + 64)
        .map((text) =>
          receiver.receive({ method: 'POST', url, contentType: 'application/json', body: text }),
        ),
    )
    if (receipts.some((r) => r.status !== 200)) throw new Error('a delivery was refused')
  }
  const ingest = EVENTS / ((performance.now() - start) / 1000)
  start = performance.now()
  await receiver.drain()
  const processing = EVENTS / ((performance.now() - start) / 1000)
  const counts = await receiver.events.counts()
  if (counts.done !== EVENTS) throw new Error(`only ${counts.done} of ${EVENTS} events were processed`)
  await receiver.close()
  return { ingest, processing }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

async function measure(label: string, open: () => Promise<WebhookStore>): Promise<void> {
  console.log(
    `\n${label}: ordering per key on (orderBy 'materialId') vs off, ${fmt(EVENTS)} events, ${ROUNDS} alternating rounds, medians`,
  )
  console.log('| scenario | off, events/s | on, events/s | ratio on/off |')
  console.log('|---|---|---|---|')
  for (const [i, scenario] of SCENARIOS.entries()) {
    const off: Array<{ ingest: number; processing: number }> = []
    const on: typeof off = []
    // A warm-up of each, not counted: the first round also pays for compiling the code.
    await round(await open(), scenario, false)
    await round(await open(), scenario, true)
    for (let r = 0; r < ROUNDS; r++) {
      off.push(await round(await open(), scenario, false))
      on.push(await round(await open(), scenario, true))
    }
    const row = (what: string, pick: (f: { ingest: number; processing: number }) => number) => {
      const a = median(off.map(pick))
      const b = median(on.map(pick))
      console.log(`| ${what} | ${fmt(a)} | ${fmt(b)} | ${fmt(b / a, 2)} |`)
    }
    if (i === 0) row('ingest (receive + store)', (f) => f.ingest)
    row(`processing: ${scenario.name}`, (f) => f.processing)
  }
}

/**
 * What one claim costs as the backlog behind a few keys deepens: 4 keys, 1,000 then 10,000
 * events waiting; each claim takes the first event of every key (4), which are then settled.
 * Median time per claim over 50 claims; a ratio near 1 means the claim does not scan the backlog.
 */
async function claimCostByDepth(open: () => Promise<WebhookStore>): Promise<void> {
  const perClaim: number[] = []
  for (const depth of [1_000, 10_000]) {
    const store = await open()
    for (let i = 0; i < depth; i += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, depth - i) }, (_, j) =>
          store.insert({
            key: `d-${i + j}`,
            eventType: 'X',
            body: '{}',
            receivedAt: 1,
            orderKey: `k${(i + j) % 4}`,
          }),
        ),
      )
    const times: number[] = []
    for (let c = 0; c < 50; c++) {
      const start = performance.now()
      const events = await store.claim({ owner: `o${c}`, limit: 32, now: 10, leaseMs: 60_000 })
      times.push(performance.now() - start)
      await Promise.all(events.map((e) => store.settle(e.key, `o${c}`, { status: 'done', at: 11 })))
    }
    perClaim.push(median(times))
    await store.close()
  }
  console.log('\nPostgreSQL: one claim with ordering, 4 keys, by backlog depth (median of 50 claims)')
  console.log('| 1,000 events waiting | 10,000 events waiting | ratio |')
  console.log('|---|---|---|')
  console.log(
    `| ${fmt(perClaim[0]!, 2)} ms | ${fmt(perClaim[1]!, 2)} ms | ${fmt(perClaim[1]! / perClaim[0]!, 2)} |`,
  )
}

const dir = mkdtempSync(join(tmpdir(), 'bench-ordering-'))
let n = 0
try {
  await measure('SQLite (synchronous FULL)', async () => sqliteStore(join(dir, `${++n}.db`)))
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const admin = new pg.Pool({ connectionString: PG_URL, max: 1, connectionTimeoutMillis: 2000 })
const schema = `bench_ordering_${process.pid}`
const reachable = await admin.query('SELECT 1').then(
  () => true,
  (error: Error) => {
    console.log(`\nPostgreSQL not reachable at ${PG_URL} (${error.message}): its part was skipped.`)
    return false
  },
)
try {
  if (reachable) {
    await measure('PostgreSQL', async () => postgresStore(PG_URL, { schema, table: `events_${++n}` }))
    await claimCostByDepth(async () => postgresStore(PG_URL, { schema, table: `events_${++n}` }))
  }
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {})
  await admin.end()
}
