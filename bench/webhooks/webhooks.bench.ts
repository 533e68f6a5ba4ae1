/**
 * Durable ingest vs a no-op: the SDK's receiver (Hono, SQLite WAL, synchronous FULL, group commit,
 * processing on) against a Hono handler that only reads the body, same load generator
 * (autocannon), same run, each server in its own process. Targets: throughput ratio >= 0.75,
 * receiver CPU per event <= 2x the no-op's, p99 acknowledgement latency <= 25 ms at 5,000
 * requests/s offered.
 *
 * With PostgreSQL reachable (POSTGRES_URL, default the local trust database `test`), the same run also
 * measures two ingest-only receiver processes on postgresStore against PostgreSQL's own ceiling, a
 * loop of plain multi-row INSERTs (see pg-ceiling.ts), and two no-op Hono processes under the same
 * load (what HTTP alone reaches here). Targets: >= 0.7x the ceiling, p99 <= 50 ms at 60% of the
 * ceiling's rate.
 *
 *     pnpm bench webhooks     (builds first; BENCH_SECONDS=5 and BENCH_ROUNDS=3 by default)
 *     BENCH_PROCESSING=0 pnpm --filter @service-sdk/bench bench webhooks    (store and acknowledge only)
 *
 * Then the cost of ordering per key (ordering.ts; BENCH_ORDERING=0 skips it).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { generateWebhookToken, postgresStore } from '@service-sdk/webhooks'
import autocannon from 'autocannon'
import pg from 'pg'
import { listeningUrl } from '../lib/listening.ts'
import { bodiesMade, eventBody } from './event-body.ts'
import { pacedLoad } from './paced-load.ts'
import { insertCeiling } from './pg-ceiling.ts'
import { ownCpuMicros, postgresCpuSince, postgresCpuSnapshot } from './pg-cpu.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
// BENCH_PROCESSING=0: the receiver only stores and acknowledges (workers elsewhere, or later).
const PROCESSING = process.env.BENCH_PROCESSING !== '0'
const RATE = 5_000
const token = generateWebhookToken()

interface Running {
  child: ChildProcess
  url: string
}

const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PG_SCHEMA = `bench_webhooks_${randomBytes(4).toString('hex')}`

function startServer(mode: 'receiver' | 'noop' | 'pg'): Promise<Running> {
  const args = mode === 'pg' ? [mode, token, PG_URL, PG_SCHEMA] : [mode, token]
  const child = spawn(process.execPath, [join(import.meta.dirname, 'server.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return listeningUrl(child, `${mode} server`).then((url) => ({ child, url }))
}

async function stopServer({ child }: Running): Promise<void> {
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}

interface Figures {
  /** Server CPU time (user + system) per acknowledged request, in microseconds. */
  cpuPerRequest?: number
  rps: number
  p50: number
  p99: number
  ok: number
  bad: number
}

async function load(
  url: string,
  options: { connections: number; rate?: number; seconds: number },
): Promise<Figures> {
  if (options.rate !== undefined) {
    const paced = await pacedLoad({
      ...options,
      rate: options.rate,
      urls: [`${url}/webhooks/${token}`],
      body: () => eventBody('bench'),
    })
    return { rps: paced.achieved, p50: paced.p50, p99: paced.p99, ok: paced.ok, bad: paced.bad }
  }
  const result = await autocannon({
    url: `${url}/webhooks/${token}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => ({ ...request, body: eventBody('bench') }),
      },
    ],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    bad: result.non2xx + result.errors + result.timeouts,
  }
}

async function cpuMicros(server: Running): Promise<number> {
  return ((await (await fetch(`${server.url}/cpu`)).json()) as { micros: number }).micros
}

/**
 * Wait until the receiver has processed its backlog, so it does not steal CPU from the next run.
 * Polls `/backlog` (two index lookups), not `/status` (counts() reads every stored event's
 * index entry: its CPU, growing with the table, would be charged to the receiver).
 */
async function settled(server: Running): Promise<void> {
  while (
    PROCESSING &&
    ((await (await fetch(`${server.url}/backlog`)).json()) as { backlog: boolean }).backlog
  )
    await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Events the receiver stored, in all. */
async function storedCount(server: Running): Promise<number> {
  const counts = (await (await fetch(`${server.url}/status`)).json()) as Record<string, number>
  return Object.values(counts).reduce((a, b) => a + b, 0)
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
/** The median, or undefined when any value is (a figure this machine cannot give). */
const medianOf = (values: Array<number | undefined>) =>
  values.every((v) => v !== undefined) ? median(values as number[]) : undefined

/**
 * Both servers run side by side (an idle one costs nothing); runs alternate between them, three
 * each, and the medians are compared, so that load from elsewhere on a shared machine hits both.
 */
async function measureAll() {
  const noopServer = await startServer('noop')
  const receiverServer = await startServer('receiver')
  try {
    for (const server of [noopServer, receiverServer]) await load(server.url, { connections: 32, seconds: 2 })
    await settled(receiverServer)
    const runs = {
      noop: { max: [] as Figures[], paced: [] as Figures[] },
      receiver: { max: [] as Figures[], paced: [] as Figures[] },
    }
    for (const kind of ['max', 'paced'] as const) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [mode, server] of [
          ['noop', noopServer],
          ['receiver', receiverServer],
        ] as const) {
          const rate = kind === 'paced' ? RATE : undefined
          const before = await cpuMicros(server)
          const figures = await load(server.url, {
            connections: 64,
            seconds: SECONDS,
            ...(rate ? { rate } : {}),
          })
          // The receiver's processing of what it stored counts too: measured once its backlog is done.
          if (mode === 'receiver') await settled(receiverServer)
          figures.cpuPerRequest = ((await cpuMicros(server)) - before) / figures.ok
          runs[mode][kind].push(figures)
        }
      }
    }
    await settled(receiverServer)
    const stored = await storedCount(receiverServer)
    const pick = (figures: Figures[]) => ({
      rps: median(figures.map((f) => f.rps)),
      p50: median(figures.map((f) => f.p50)),
      p99: median(figures.map((f) => f.p99)),
      bad: figures.reduce((a, f) => a + f.bad, 0),
      cpu: median(figures.map((f) => f.cpuPerRequest ?? 0)),
      all: figures.map((f) => Math.round(f.rps)),
      p99s: figures.map((f) => f.p99),
      runs: figures,
    })
    return {
      noop: { max: pick(runs.noop.max), paced: pick(runs.noop.paced) },
      receiver: { max: pick(runs.receiver.max), paced: pick(runs.receiver.paced), stored },
    }
  } finally {
    await Promise.all([stopServer(noopServer), stopServer(receiverServer)])
  }
}

/** Load on several servers at once (one autocannon each, the rate and connections split): summed. */
async function loadMany(
  servers: Running[],
  options: { connections: number; rate?: number; seconds: number },
) {
  const share = (n: number) => Math.max(1, Math.round(n / servers.length))
  const results = await Promise.all(
    servers.map((server) =>
      load(server.url, {
        connections: share(options.connections),
        seconds: options.seconds,
        ...(options.rate === undefined ? {} : { rate: share(options.rate) }),
      }),
    ),
  )
  return {
    rps: results.reduce((a, r) => a + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    ok: results.reduce((a, r) => a + r.ok, 0),
    bad: results.reduce((a, r) => a + r.bad, 0),
  }
}

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** Paced load on several servers at once, requests spread over them in turn. */
function pacedMany(servers: Running[], rate: number) {
  const urls = servers.map((server) => `${server.url}/webhooks/${token}`)
  return pacedLoad({ urls, rate, seconds: SECONDS, connections: 64, body: () => eventBody('bench') })
}

/**
 * Max throughput of the servers together, and CPU time per acknowledged event (µs): the servers'
 * (both processes), the load generator's (this process: autocannon) and the local PostgreSQL's.
 */
async function maxMany(servers: Running[]) {
  const before = await Promise.all(servers.map(cpuMicros))
  const loadBefore = ownCpuMicros()
  const pgBefore = postgresCpuSnapshot()
  const figures = await loadMany(servers, { connections: 64, seconds: SECONDS })
  const pgCpu = postgresCpuSince(pgBefore)
  const loadCpu = ownCpuMicros() - loadBefore
  const after = await Promise.all(servers.map(cpuMicros))
  const cpu = after.reduce((a, v, i) => a + v - before[i]!, 0)
  const events = Math.max(1, figures.ok)
  return {
    ...figures,
    cpuPerEvent: cpu / events,
    loadCpuPerEvent: loadCpu / events,
    pgCpuPerEvent: pgCpu === undefined ? undefined : pgCpu / events,
  }
}

/**
 * postgresStore's own insert path, without HTTP: 64 callers in this process, each inserting the
 * bench's bodies one after another. Events stored per second: what the store makes of the
 * database, to set beside the receivers (which add HTTP and their own CPU).
 */
async function storeAlone(): Promise<number> {
  const store = postgresStore(PG_URL, { schema: PG_SCHEMA, table: 'store_alone' })
  await store.ping!()
  const until = Date.now() + SECONDS * 1_000
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
  return stored / SECONDS
}

/** Two ingest-only receivers on PostgreSQL vs the plain INSERT loop, alternating, medians. */
async function measurePostgres() {
  const store = postgresStore(PG_URL, { schema: PG_SCHEMA })
  await store.ping!() // creates the schema and the table
  await store.close()
  const servers = [await startServer('pg'), await startServer('pg')]
  // Two no-op Hono processes under the same load: what HTTP alone reaches on this machine, the
  // bound on any receiver pair here whatever its store does.
  const noops = [await startServer('noop'), await startServer('noop')]
  try {
    await loadMany(servers, { connections: 64, seconds: 2 })
    const ceiling: Array<Awaited<ReturnType<typeof insertCeiling>>> = []
    const max: Array<Awaited<ReturnType<typeof maxMany>>> = []
    const http: Array<Awaited<ReturnType<typeof maxMany>>> = []
    const alone: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      ceiling.push(
        await insertCeiling({
          url: PG_URL,
          schema: PG_SCHEMA,
          seconds: SECONDS,
          body: () => eventBody('bench'),
        }),
      )
      max.push(await maxMany(servers))
      http.push(await maxMany(noops))
      alone.push(await storeAlone())
    }
    await Promise.all(noops.splice(0).map(stopServer))
    const ceilingRps = median(ceiling.map((c) => c.rate))
    const receiversRps = median(max.map((m) => m.rps))
    const rate = Math.round(0.6 * ceilingRps)
    const paced = []
    for (let round = 0; round < ROUNDS; round++) paced.push(await pacedMany(servers, rate))
    // When 60% of the ceiling is beyond what the receivers can take, also 60% of their own max.
    const ownRate = Math.round(0.6 * receiversRps)
    const own = ownRate < rate ? [await pacedMany(servers, ownRate)] : []
    return {
      ceiling: ceilingRps,
      ceilings: ceiling.map((c) => Math.round(c.rate)),
      ceilingCpu: median(ceiling.map((c) => c.cpuPerRow)),
      ceilingPgCpu: medianOf(ceiling.map((c) => c.serverCpuPerRow)),
      alone: median(alone),
      http: median(http.map((m) => m.rps)),
      httpCpu: median(http.map((m) => m.cpuPerEvent)),
      httpLoadCpu: median(http.map((m) => m.loadCpuPerEvent)),
      rps: receiversRps,
      all: max.map((m) => Math.round(m.rps)),
      cpu: median(max.map((m) => m.cpuPerEvent)),
      loadCpu: median(max.map((m) => m.loadCpuPerEvent)),
      pgCpu: medianOf(max.map((m) => m.pgCpuPerEvent)),
      rate,
      paced: {
        rps: median(paced.map((p) => p.achieved)),
        p50: median(paced.map((p) => p.p50)),
        p99: median(paced.map((p) => p.p99)),
      },
      p99s: paced.map((p) => p.p99),
      own: own[0] && { rate: ownRate, ...own[0] },
      bad: [...max, ...paced, ...own].reduce((a, m) => a + m.bad, 0),
    }
  } finally {
    await Promise.all([...servers, ...noops].map(stopServer))
    const admin = new pg.Client({ connectionString: PG_URL })
    await admin.connect()
    await admin.query(`DROP SCHEMA IF EXISTS "${PG_SCHEMA}" CASCADE`)
    await admin.end()
  }
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

// BENCH_PARTS=pg,ordering (for example) runs only those parts; default all three.
const PARTS = (process.env.BENCH_PARTS ?? 'sqlite,pg,ordering').split(',')

if (PARTS.includes('sqlite')) await reportSqlite()

async function reportSqlite() {
  const { noop, receiver } = await measureAll()
  // Each round runs the no-op and then the receiver: the ratios are the median of the rounds' own
  // ratios, as this machine's speed drifted by up to 2x within minutes (a ratio of medians taken
  // from different rounds carries that drift; a round's pair mostly shares it).
  const paired = (of: (f: Figures) => number) =>
    median(receiver.max.runs.map((f, i) => of(f) / of(noop.max.runs[i]!)))
  const ratio = paired((f) => f.rps)
  const cpuCost = paired((f) => f.cpuPerRequest ?? 0)

  console.log(
    `\nWebhook receiver (processing ${PROCESSING ? 'on' : 'off'}) vs no-op Hono handler (autocannon, 64 connections, ${ROUNDS} alternating runs of ${SECONDS} s each, medians; ratios: the median of each round's own ratio)`,
  )
  console.log('| run | no-op Hono | receiver (SQLite FULL) | ratio |')
  console.log('|---|---|---|---|')
  console.log(
    `| max throughput, req/s | ${fmt(noop.max.rps)} | ${fmt(receiver.max.rps)} | ${fmt(ratio, 2)} |`,
  )
  console.log(
    `| at ${fmt(RATE)} req/s offered: achieved req/s | ${fmt(noop.paced.rps)} | ${fmt(receiver.paced.rps)} | |`,
  )
  console.log(
    `| at ${fmt(RATE)} req/s offered: p50 / p99 ms | ${noop.paced.p50} / ${noop.paced.p99} | ${receiver.paced.p50} / ${receiver.paced.p99} | |`,
  )
  console.log(
    `| non-2xx or errors | ${noop.max.bad + noop.paced.bad} | ${receiver.max.bad + receiver.paced.bad} | |`,
  )
  console.log(
    `| server CPU per request, µs (max runs) | ${fmt(noop.max.cpu)} | ${fmt(receiver.max.cpu)} | ${fmt(cpuCost, 2)}x |`,
  )
  console.log(
    `\nmax req/s per run: no-op ${noop.max.all.join(', ')}; receiver ${receiver.max.all.join(', ')}`,
  )
  const perRound = (of: (f: Figures) => number) =>
    receiver.max.runs.map((f, i) => fmt(of(f) / of(noop.max.runs[i]!), 2)).join(', ')
  console.log(
    `per round, receiver ÷ no-op: throughput ${perRound((f) => f.rps)}; CPU per request ${perRound((f) => f.cpuPerRequest ?? 0)}`,
  )
  console.log(
    `p99 ms per paced run: no-op ${noop.paced.p99s.join(', ')}; receiver ${receiver.paced.p99s.join(', ')}`,
  )
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${cpus().length} CPUs)`,
  )
  console.log(
    `\nreceiver: ${fmt(receiver.stored ?? 0)} events stored of ${fmt(bodiesMade())} requests sent in total (both servers, with warm-ups)`,
  )
  const throughputOk = ratio >= 0.75
  const latencyOk = receiver.paced.p99 <= 25
  console.log(`target throughput ratio >= 0.75: ${throughputOk ? 'met' : 'NOT met'} (${fmt(ratio, 2)})`)
  console.log(
    `target receiver CPU per event <= 2x the no-op's: ${cpuCost <= 2 ? 'met' : 'NOT met'} (${fmt(cpuCost, 2)}x)`,
  )
  console.log(
    `target p99 <= 25 ms at ${fmt(RATE)} req/s: ${latencyOk ? 'met' : 'NOT met'} (${receiver.paced.p99} ms)`,
  )
}

if (PARTS.includes('pg') && (await pgReachable())) {
  const p = await measurePostgres()
  const pgRatio = p.rps / p.ceiling
  console.log(
    `\nPostgreSQL: two ingest-only receiver processes vs a plain multi-row INSERT loop (2 connections, 32 rows a statement), ${ROUNDS} alternating runs of ${SECONDS} s, medians`,
  )
  console.log('| run | INSERT loop | 2 receivers (postgresStore) | ratio |')
  console.log('|---|---|---|---|')
  console.log(`| max throughput, events/s | ${fmt(p.ceiling)} | ${fmt(p.rps)} | ${fmt(pgRatio, 2)} |`)
  console.log(
    `| postgresStore.insert alone (1 process, 64 callers, no HTTP), events/s | ${fmt(p.ceiling)} | ${fmt(p.alone)} | ${fmt(p.alone / p.ceiling, 2)} |`,
  )
  console.log(
    `| 2 no-op Hono processes, same load (HTTP alone, no store), req/s; CPU per request µs | ${fmt(p.ceiling)} | ${fmt(p.http)}; ${fmt(p.httpCpu)} µs | ${fmt(p.http / p.ceiling, 2)} |`,
  )
  console.log(
    `| client CPU per event, µs (INSERT loop: the loop's process; receivers: both processes, HTTP included) | ${fmt(p.ceilingCpu)} | ${fmt(p.cpu)} | ${fmt(p.cpu / p.ceilingCpu, 1)}x |`,
  )
  console.log(
    `| ${fmt(p.rate)} req/s offered (60% of the ceiling, open loop): achieved / p50 / p99 ms | | ${fmt(p.paced.rps)} / ${p.paced.p50} / ${p.paced.p99} | |`,
  )
  if (p.own)
    console.log(
      `| ${fmt(p.own.rate)} req/s offered (60% of the receivers' own max): achieved / p50 / p99 ms | | ${fmt(p.own.achieved)} / ${p.own.p50} / ${p.own.p99} | |`,
    )
  console.log(`| non-2xx or errors | | ${p.bad} | |`)
  printBudget(p)
  console.log(
    `per run: ceiling ${p.ceilings.join(', ')}; receivers ${p.all.join(', ')}; paced p99 ${p.p99s.join(', ')} ms`,
  )
  console.log(
    `target >= 0.7x the INSERT ceiling: ${pgRatio >= 0.7 ? 'met' : 'NOT met'} (${fmt(pgRatio, 2)}; HTTP alone reaches ${fmt(p.http / p.ceiling, 2)}x, the receivers ${fmt(p.rps / p.http, 2)}x of HTTP alone)`,
  )
  console.log(
    `target p99 <= 50 ms at 60% of the ceiling: ${p.paced.p99 <= 50 ? 'met' : 'NOT met'} (${p.paced.p99} ms)`,
  )
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${cpus().length} CPUs)`,
  )
} else if (PARTS.includes('pg')) {
  console.log(`\nPostgreSQL not reachable at ${PG_URL}: its part of the benchmark was skipped.`)
}

/**
 * Everything runs on one machine, so what limits a CPU-bound run is the CPU time of every process
 * per event: the INSERT loop's client and PostgreSQL; the load generator, both receivers and
 * PostgreSQL. The ratio of those sums is the ratio the receivers could reach against the loop if
 * both used every core (load-robust, unlike throughput). HTTP alone (load generator + no-op
 * servers + the PostgreSQL work of the loop) bounds any receiver on this machine whatever its store.
 */
function printBudget(p: Awaited<ReturnType<typeof measurePostgres>>) {
  if (p.ceilingPgCpu === undefined || p.pgCpu === undefined) return
  const loop = p.ceilingCpu + p.ceilingPgCpu
  const receivers = p.loadCpu + p.cpu + p.pgCpu
  const httpBound = p.httpLoadCpu + p.httpCpu + p.ceilingPgCpu
  console.log(
    `\nCPU per event on the whole machine, µs (medians; PostgreSQL's includes any other client of the same server):`,
  )
  console.log(`| path | load generator | client / receivers | PostgreSQL | sum |`)
  console.log('|---|---|---|---|---|')
  console.log(`| INSERT loop | | ${fmt(p.ceilingCpu)} | ${fmt(p.ceilingPgCpu)} | ${fmt(loop)} |`)
  console.log(`| 2 receivers | ${fmt(p.loadCpu)} | ${fmt(p.cpu)} | ${fmt(p.pgCpu)} | ${fmt(receivers)} |`)
  console.log(
    `| HTTP alone + the loop's PostgreSQL work | ${fmt(p.httpLoadCpu)} | ${fmt(p.httpCpu)} (no-op) | ${fmt(p.ceilingPgCpu)} | ${fmt(httpBound)} |`,
  )
  console.log(
    `CPU-bound ratios against the loop: receivers ${fmt(loop / receivers, 2)}x; any receiver on this machine (HTTP alone, a store costing nothing) at most ${fmt(loop / httpBound, 2)}x`,
  )
}

if (PARTS.includes('ordering') && process.env.BENCH_ORDERING !== '0') await import('./ordering.ts')
