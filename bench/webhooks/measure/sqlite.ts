/**
 * The webhooks bench's SQLite part: the SDK's receiver (SQLite WAL, synchronous FULL, group
 * commit, processing on unless BENCH_PROCESSING=0), the no-op Hono handler and the Express +
 * SQLite peer (a synchronous INSERT and fsync per request), one process each, under the same
 * autocannon load, in alternating rounds; then the receiver under an open-loop load at half its
 * own measured maximum, and the no-op under the same open-loop load (alternating rounds): the
 * p99 HTTP alone has on this machine at that rate, beside the receiver's.
 */
import { median } from '../../lib/report.ts'
import type { PacedResult } from '../paced-load.ts'
import { fmt, pairedRatio, webhooksTarget } from './figures.ts'
import { CONNECTIONS, type MaxRun, maxRun, pacedRun, warmUp } from './load.ts'
import { type Running, startServer, stopServer, storedCount } from './servers.ts'

const NAMES = ['noop', 'receiver', 'peer'] as const
type Name = (typeof NAMES)[number]

export interface SqliteFigures {
  max: Record<Name, MaxRun[]>
  paced: PacedResult[]
  /** The no-op Hono handler under the same open-loop load: the floor of the p99. */
  pacedNoop: PacedResult[]
  rate: number
  stored: number
}

export async function measureSqlite(options: {
  token: string
  seconds: number
  rounds: number
  processing: boolean
}): Promise<SqliteFigures> {
  const { token, seconds, processing } = options
  const servers: Partial<Record<Name, Running>> = {}
  try {
    servers.noop = await startServer('noop', token)
    servers.receiver = await startServer('receiver', token)
    servers.peer = await startServer('express-sqlite', token)
    for (const name of NAMES) await warmUp([servers[name]!], token, processing)
    const max: Record<Name, MaxRun[]> = { noop: [], receiver: [], peer: [] }
    for (let round = 0; round < options.rounds; round++)
      for (const name of NAMES)
        max[name].push(await maxRun([servers[name]!], token, { seconds, processing, postgres: false }))
    const rate = Math.max(1, Math.round(0.5 * median(max.receiver.map((r) => r.rps))))
    const paced: PacedResult[] = []
    const pacedNoop: PacedResult[] = []
    for (let round = 0; round < options.rounds; round++) {
      paced.push(await pacedRun([servers.receiver], token, rate, seconds))
      pacedNoop.push(await pacedRun([servers.noop], token, rate, seconds))
    }
    return { max, paced, pacedNoop, rate, stored: await storedCount(servers.receiver) }
  } finally {
    await Promise.all(Object.values(servers).map(stopServer))
  }
}

export function reportSqlite(f: SqliteFigures, options: { seconds: number; processing: boolean }): void {
  const m = (name: Name, of: (r: MaxRun) => number) => fmt(median(f.max[name].map(of)))
  const row = (label: string, of: (r: MaxRun) => number) =>
    console.log(`| ${label} | ${m('noop', of)} | ${m('receiver', of)} | ${m('peer', of)} |`)
  console.log(
    `\nSQLite: the SDK's receiver (processing ${options.processing ? 'on' : 'off'}) vs the no-op Hono handler vs the Express + SQLite peer (autocannon, ${CONNECTIONS} connections, ${f.max.noop.length} alternating rounds of ${options.seconds} s, medians)`,
  )
  console.log('| per run | no-op Hono | SDK receiver (SQLite FULL) | Express + SQLite peer |')
  console.log('|---|---|---|---|')
  row('max throughput, req/s', (r) => r.rps)
  row('server CPU per event, µs (process user + sys)', (r) => r.serverCpu)
  row('load generator CPU per event, µs', (r) => r.loadCpu)
  row('machine CPU per event, µs (load generator + server)', (r) => r.machineCpu)
  row('non-2xx or errors', (r) => r.bad)
  const p = (of: (r: PacedResult) => number) => median(f.paced.map(of))
  console.log(
    `receiver at ${fmt(f.rate)} req/s offered (half its max, open loop): achieved ${fmt(p((r) => r.achieved))}, p50 ${p((r) => r.p50)} ms, p99 ${p((r) => r.p99)} ms, non-2xx ${f.paced.reduce((a, r) => a + r.bad, 0)}`,
  )
  console.log(
    `no-op Hono at the same rate (HTTP alone, the floor on this machine): p50 ${median(f.pacedNoop.map((r) => r.p50))} ms, p99 ${median(f.pacedNoop.map((r) => r.p99))} ms`,
  )
  console.log(
    `max req/s per round: no-op ${f.max.noop.map((r) => fmt(r.rps)).join(', ')}; receiver ${f.max.receiver.map((r) => fmt(r.rps)).join(', ')}; peer ${f.max.peer.map((r) => fmt(r.rps)).join(', ')}`,
  )
  console.log(`receiver: ${fmt(f.stored)} events stored in all (warm-up included)`)
  const ratio = (a: Name, b: Name, of: (r: MaxRun) => number) =>
    pairedRatio(f.max[a].map(of), f.max[b].map(of))
  console.log(
    `information, no target: receiver throughput ÷ no-op's ${fmt(
      ratio('receiver', 'noop', (r) => r.rps),
      2,
    )} (ratios: the median of each round's own)`,
  )
  webhooksTarget(
    'SQLite receiver CPU per event ÷ no-op Hono, process user+sys',
    ratio('receiver', 'noop', (r) => r.serverCpu),
    { atMost: 2, unit: 'x' },
  )
  webhooksTarget(
    'SQLite receiver throughput ÷ Express + SQLite peer',
    ratio('receiver', 'peer', (r) => r.rps),
    { atLeast: 2, unit: 'x' },
  )
  webhooksTarget(
    'SQLite receiver machine CPU per event ÷ Express + SQLite peer',
    ratio('receiver', 'peer', (r) => r.machineCpu),
    { atMost: 0.7, unit: 'x' },
  )
  webhooksTarget(
    'SQLite receiver p99 at half its own max',
    p((r) => r.p99),
    { atMost: 50, unit: 'ms' },
  )
}
