/** The webhooks bench's PostgreSQL part, printed: its table, information, and targets. */
import { median } from '../../lib/report.ts'
import type { PacedResult } from '../paced-load.ts'
import { fmt, medianOf, pairedRatio, webhooksTarget } from './figures.ts'
import type { MaxRun } from './load.ts'
import type { PostgresFigures } from './postgres.ts'

const opt = (n: number | undefined) => (n === undefined ? 'n/a' : fmt(n))

export function reportPostgres(f: PostgresFigures, seconds: number): void {
  const m = (kind: keyof PostgresFigures['max'], of: (r: MaxRun) => number | undefined) =>
    opt(medianOf(f.max[kind].map(of)))
  const c = (of: (r: PostgresFigures['ceiling'][number]) => number | undefined) =>
    opt(medianOf(f.ceiling.map(of)))
  const row = (label: string, ceiling: string, of: (r: MaxRun) => number | undefined) =>
    console.log(`| ${label} | ${ceiling} | ${m('noops', of)} | ${m('receivers', of)} | ${m('peers', of)} |`)
  console.log(
    `\nPostgreSQL: two processes of each kind under the same load (autocannon, 64 connections in all) and a plain multi-row INSERT loop (2 connections, 32 rows a statement), ${f.ceiling.length} alternating rounds of ${seconds} s, medians`,
  )
  console.log(
    '| per run | INSERT loop | 2 no-op Hono | 2 SDK receivers (postgresStore, ingest only) | 2 Hono + pg peers |',
  )
  console.log('|---|---|---|---|---|')
  row(
    'events/s',
    c((r) => r.rate),
    (r) => r.rps,
  )
  row(
    'server CPU per event, µs (the loop: its client)',
    c((r) => r.cpuPerRow),
    (r) => r.serverCpu,
  )
  row('load generator CPU per event, µs', '', (r) => r.loadCpu)
  row(
    'PostgreSQL CPU per event, µs',
    c((r) => r.serverCpuPerRow),
    (r) => r.pgCpu,
  )
  row(
    'machine CPU per event, µs (sum)',
    c((r) => (r.serverCpuPerRow === undefined ? undefined : r.cpuPerRow + r.serverCpuPerRow)),
    (r) => (r.pgCpu === undefined ? undefined : r.machineCpu),
  )
  row('non-2xx or errors', '', (r) => r.bad)
  const p = (of: (r: PacedResult) => number) => median(f.paced.map(of))
  console.log(
    `receivers at ${fmt(f.rate)} req/s offered (half their max, open loop): achieved ${fmt(p((r) => r.achieved))}, p50 ${p((r) => r.p50)} ms, p99 ${p((r) => r.p99)} ms, non-2xx ${f.paced.reduce((a, r) => a + r.bad, 0)}`,
  )
  console.log(
    `no-op Hono processes at the same rate (HTTP alone, the floor on this machine): p50 ${median(f.pacedNoops.map((r) => r.p50))} ms, p99 ${median(f.pacedNoops.map((r) => r.p99))} ms`,
  )
  console.log(`postgresStore.insert alone (1 process, 64 callers, no HTTP): ${fmt(median(f.alone))} events/s`)
  console.log(
    `events/s per round: INSERT loop ${f.ceiling.map((r) => fmt(r.rate)).join(', ')}; receivers ${f.max.receivers.map((r) => fmt(r.rps)).join(', ')}; peers ${f.max.peers.map((r) => fmt(r.rps)).join(', ')}`,
  )
  const ratio = (
    a: keyof PostgresFigures['max'],
    b: keyof PostgresFigures['max'],
    of: (r: MaxRun) => number | undefined,
  ) => pairedRatio(f.max[a].map(of), f.max[b].map(of))
  const ofCeiling = pairedRatio(
    f.max.receivers.map((r) => r.rps),
    f.ceiling.map((r) => r.rate),
  )
  console.log(
    `information, no target: receivers ÷ INSERT loop throughput ${fmt(ofCeiling, 2)}; receivers ÷ no-op Hono throughput ${fmt(
      ratio('receivers', 'noops', (r) => r.rps),
      2,
    )}`,
  )
  const machine = (r: MaxRun) => (r.pgCpu === undefined ? undefined : r.machineCpu)
  const pgOfLoop = pairedRatio(
    f.max.receivers.map((r) => r.pgCpu),
    f.ceiling.map((r) => r.serverCpuPerRow),
  )
  webhooksTarget(
    'PostgreSQL receiver CPU per event ÷ no-op Hono, process user+sys',
    ratio('receivers', 'noops', (r) => r.serverCpu),
    { atMost: 2, unit: 'x' },
  )
  webhooksTarget("PostgreSQL's CPU per event, receivers ÷ INSERT loop", pgOfLoop, { atMost: 1.5, unit: 'x' })
  webhooksTarget(
    'PostgreSQL receivers throughput ÷ Hono + pg peers',
    ratio('receivers', 'peers', (r) => r.rps),
    { atLeast: 2, unit: 'x' },
  )
  webhooksTarget(
    'PostgreSQL receivers machine CPU per event ÷ Hono + pg peers',
    ratio('receivers', 'peers', machine),
    { atMost: 0.7, unit: 'x' },
  )
  webhooksTarget(
    'PostgreSQL receivers p99 at half their own max',
    p((r) => r.p99),
    { atMost: 50, unit: 'ms' },
  )
}
