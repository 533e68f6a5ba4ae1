/**
 * Durable ingest, measured against what HTTP alone costs and against the endpoints a user would
 * write instead (the peers, ./peers/), in the same run under the same load, each server in its
 * own process (./measure/servers.ts). About 12 minutes with the defaults: SQLite 1.5, PostgreSQL
 * 2, instructions 7 (3 rounds under valgrind), ordering 1; BENCH_PARTS picks parts.
 *
 * SQLite (./measure/sqlite.ts): the SDK's receiver (Hono, SQLite WAL, synchronous FULL, group
 * commit, processing on), the no-op Hono handler, and the Express + SQLite peer (a synchronous
 * INSERT per request, synchronous=FULL, node:sqlite). Targets: receiver CPU per event <= 2.0x
 * the no-op's, in process CPU time (user + sys: the fsync's kernel time included) and in
 * instructions (./instructions.ts under callgrind, median of 3 rounds, with its profile by stage);
 * throughput >= 2x the peer's at <= 0.7x its machine CPU per event (load generator + server);
 * p99 acknowledgement latency <= 50 ms at half the receiver's own measured maximum.
 *
 * PostgreSQL (./measure/postgres.ts; POSTGRES_URL, default the local trust database `test`; the
 * part is skipped when it does not answer): two ingest-only receiver processes on postgresStore,
 * two no-op Hono processes, two Hono + pg peers (an awaited INSERT ... ON CONFLICT DO NOTHING per
 * request, pg Pool) and a loop of plain multi-row INSERTs (./pg-ceiling.ts). Targets: receiver
 * process CPU per event <= 2.0x the no-op's; PostgreSQL's CPU per event <= 1.5x the INSERT
 * loop's; throughput >= 2x the peers' at <= 0.7x their machine CPU per event (load generator +
 * servers + every postgres process, ./pg-cpu.ts); p99 <= 50 ms at half the receivers' own max.
 * Printed as information, no target: throughput against the no-op's and against the INSERT loop.
 *
 * Then the cost of ordering per key (./ordering.ts).
 *
 *     pnpm bench webhooks     (builds first; BENCH_SECONDS=5 and BENCH_ROUNDS=3 by default)
 *     BENCH_PARTS=sqlite,pg,instructions,ordering (the default: all four)
 *     BENCH_PROCESSING=0      (the SQLite receiver only stores and acknowledges); BENCH_ORDERING=0 skips ordering
 *     BENCH_INSTRUCTIONS_ROUNDS=3, N=5000, WARM=50000 (passed on to instructions.ts)
 */
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { generateWebhookToken } from '@service-sdk/webhooks'
import { measurePostgres, postgresReachable } from './measure/postgres.ts'
import { reportPostgres } from './measure/postgres-report.ts'
import { measureSqlite, reportSqlite } from './measure/sqlite.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PROCESSING = process.env.BENCH_PROCESSING !== '0'
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PARTS = (process.env.BENCH_PARTS ?? 'sqlite,pg,instructions,ordering').split(',')
const INSTRUCTION_ROUNDS = process.env.BENCH_INSTRUCTIONS_ROUNDS ?? '3'
const token = generateWebhookToken()

console.log(
  `webhooks bench: about 12 minutes with the defaults (now ${PARTS.join(', ')}; ${ROUNDS} rounds of ${SECONDS} s a run, ${INSTRUCTION_ROUNDS} under valgrind)`,
)

const machine = () =>
  console.log(
    `load average: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (${cpus().length} CPUs)`,
  )

if (PARTS.includes('sqlite')) {
  const figures = await measureSqlite({ token, seconds: SECONDS, rounds: ROUNDS, processing: PROCESSING })
  reportSqlite(figures, { seconds: SECONDS, processing: PROCESSING })
  machine()
}

if (PARTS.includes('instructions')) {
  // The same target counted in instructions, which a shared machine's load does not move.
  const run = spawnSync(process.execPath, [join(import.meta.dirname, 'instructions.ts')], {
    stdio: 'inherit',
    env: { ...process.env, ROUNDS: INSTRUCTION_ROUNDS },
  })
  if (run.status !== 0) console.log(`instructions.ts exited with ${run.status}`)
}

if (PARTS.includes('pg')) {
  if (await postgresReachable(PG_URL)) {
    reportPostgres(await measurePostgres({ token, url: PG_URL, seconds: SECONDS, rounds: ROUNDS }), SECONDS)
    machine()
  } else console.log(`\nPostgreSQL not reachable at ${PG_URL}: its part of the benchmark was skipped.`)
}

if (PARTS.includes('ordering') && process.env.BENCH_ORDERING !== '0') await import('./ordering.ts')
