/**
 * The receiver's cost per event against the no-op Hono handler's (the webhooks bench's "CPU per
 * event" target, <= 2.0x), counted in instructions: each server of server.ts runs under valgrind's
 * callgrind, which counts what the process executes (every thread) the same way whatever else
 * the machine is doing, where CPU time on a shared 2-core machine varied by a third between
 * runs. Kernel time (fsync, socket writes) is not counted: the bench's CPU-time figure has it.
 * Counts still vary by about 5% between runs of one build (V8's compiler and garbage-collector
 * threads, how many requests each turn of the event loop takes): ROUNDS runs each and reports
 * the medians. (`node --single-threaded` steadied the counts but changed them: the no-op cost
 * half as much again.)
 *
 * Each server is run twice, with WARM and with WARM + N requests (autocannon, 16 connections;
 * the receiver's backlog processed before it stops): the difference over N is the cost per
 * request without start-up and JIT warm-up. Then where the receiver's instructions go, by stage
 * (measure/stages.ts: callgrind's counts by thread, the main thread split by a CPU profile of
 * the same load). About 5 minutes a round; needs valgrind.
 *
 * INSTRUCTIONS_PG=1 also counts the ingest-only receiver on postgresStore (server.ts `pg`, in a
 * schema of its own at POSTGRES_URL, default the local trust database `test`), against the same
 * no-op: information, no target (the webhooks bench's PostgreSQL target is in CPU time under load,
 * where run-to-run spread is about 0.1 of the ratio). PostgreSQL's own processes are not counted.
 * About 1.5 minutes more a round.
 *
 *     pnpm --filter @service-sdk/bench exec node webhooks/instructions.ts      (N=2000, WARM=500, ROUNDS=1)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateWebhookToken } from '@service-sdk/webhooks'
import autocannon from 'autocannon'
import { callgrindArgs, hasValgrind, type ThreadCounts, threadCounts } from '../lib/callgrind.ts'
import type { CpuProfile } from '../lib/cpu-profile.ts'
import { listeningUrl } from '../lib/listening.ts'
import { dropSchema } from '../lib/postgres.ts'
import { median, recordTarget } from '../lib/report.ts'
import { eventBody } from './event-body.ts'
import { printStages } from './measure/stages.ts'

const N = Number(process.env.N ?? 2000)
const WARM = Number(process.env.WARM ?? 500)
const ROUNDS = Number(process.env.ROUNDS ?? 1)
const MEASURE = 'SQLite receiver instructions per event ÷ no-op Hono (callgrind)'
const WITH_PG = process.env.INSTRUCTIONS_PG === '1'
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
type Mode = 'receiver' | 'noop' | 'pg'

console.log(
  `instructions: about ${5 * ROUNDS} minutes (${ROUNDS} rounds under valgrind, ${N} requests after ${WARM})`,
)
if (!hasValgrind()) {
  console.error('instructions.ts needs valgrind (apt-get install valgrind)')
  recordTarget({
    bench: 'webhooks',
    measure: MEASURE,
    figure: 'not measured: no valgrind',
    target: '<= 2x',
    met: false,
  })
  process.exit(1)
}

/** `requests` requests from 16 connections, each answered 200, else throws. */
async function send(url: string, token: string, requests: number, what: string): Promise<void> {
  const result = await autocannon({
    url: `${url}/webhooks/${token}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: 16,
    amount: requests,
    // Under valgrind a request can take seconds on a busy machine (autocannon's default is 10 s).
    timeout: 120,
    requests: [
      { setupRequest: (request: Record<string, unknown>) => ({ ...request, body: eventBody('ins') }) },
    ],
  })
  if (result['2xx'] !== requests)
    throw new Error(
      `${what}: ${requests - result['2xx']} of ${requests} requests not answered 200 (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`,
    )
}

/** Instructions the server executed by thread role, from start to SIGTERM, after `requests`. */
async function instructions(mode: Mode, requests: number): Promise<ThreadCounts> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'))
  const token = generateWebhookToken()
  const schema = `bench_instructions_${randomBytes(4).toString('hex')}`
  const server = [
    join(import.meta.dirname, 'server.ts'),
    mode,
    token,
    ...(mode === 'pg' ? [PG_URL, schema] : []),
  ]
  const child = spawn('valgrind', [...callgrindArgs(dir), process.execPath, ...server], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  try {
    const url = await listeningUrl(child, `${mode} under valgrind`)
    await send(url, token, requests, mode)
    if (mode === 'receiver') await drained(url)
    await stopped(child)
    if (readdirSync(dir).length === 0) throw new Error(`no callgrind output in ${dir}`)
    return threadCounts(dir)
  } finally {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    if (mode === 'pg') await dropSchema(PG_URL, schema)
  }
}

/** A CPU profile of the receiver's main thread (no valgrind) over the same load. */
async function receiverProfile(requests: number): Promise<CpuProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-stages-'))
  const token = generateWebhookToken()
  const args = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100']
  const server = join(import.meta.dirname, 'server.ts')
  const child = spawn(process.execPath, [...args, server, 'receiver', token], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  try {
    const url = await listeningUrl(child, 'receiver')
    await send(url, token, requests, 'receiver')
    await drained(url)
    await stopped(child)
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main one.
    const main = readdirSync(dir).find((name) => name.split('.')[4] === '0')
    if (!main) throw new Error(`no main-thread profile in ${dir}`)
    return JSON.parse(readFileSync(join(dir, main), 'utf8')) as CpuProfile
  } finally {
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

async function drained(url: string): Promise<void> {
  while (((await (await fetch(`${url}/backlog`)).json()) as { backlog: boolean }).backlog)
    await new Promise((resolve) => setTimeout(resolve, 200))
}

function stopped(child: ChildProcess): Promise<void> {
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  return exit
}

const sum = (c: ThreadCounts) => c.main + c.sqlite + c.helpers
const perEvent = (full: ThreadCounts, warm: ThreadCounts): ThreadCounts => ({
  main: (full.main - warm.main) / N,
  sqlite: (full.sqlite - warm.sqlite) / N,
  helpers: (full.helpers - warm.helpers) / N,
})
const runs: Record<Mode, ThreadCounts[]> = { noop: [], receiver: [], pg: [] }
/** The round whose total is the median one. */
const middleOf = (rounds: ThreadCounts[]) =>
  rounds.find((c) => sum(c) === median(rounds.map(sum))) ?? rounds[0]!
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of WITH_PG ? (['noop', 'receiver', 'pg'] as const) : (['noop', 'receiver'] as const)) {
    const warm = await instructions(mode, WARM)
    runs[mode].push(perEvent(await instructions(mode, WARM + N), warm))
  }
}
const noop = median(runs.noop.map(sum))
const receiver = median(runs.receiver.map(sum))
const ratio = receiver / noop
const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')}k`
console.log(
  `\nInstructions per request (callgrind, whole process; ${N} requests after ${WARM}; ${ROUNDS} rounds, medians)`,
)
console.log('| no-op Hono | receiver (SQLite FULL, processing on) | ratio |')
console.log('|---|---|---|')
console.log(`| ${k(noop)} | ${k(receiver)} | ${ratio.toFixed(2)}x |`)
console.log(
  `per round: no-op ${runs.noop.map(sum).map(k).join(', ')}; receiver ${runs.receiver.map(sum).map(k).join(', ')}`,
)
// By thread, so that the receiver's excess is read where it is (the no-op has no SQLite thread).
const byThread = (c: ThreadCounts) =>
  `main ${k(c.main)}, SQLite thread ${k(c.sqlite)}, helpers ${k(c.helpers)}`
console.log(
  `by thread (median round): no-op ${byThread(middleOf(runs.noop))}; receiver ${byThread(middleOf(runs.receiver))}`,
)
if (WITH_PG) {
  const pgReceiver = median(runs.pg.map(sum))
  console.log(
    `PostgreSQL ingest-only receiver (information, no target): ${k(pgReceiver)} per request, ${(pgReceiver / noop).toFixed(2)}x the no-op's; per round ${runs.pg.map(sum).map(k).join(', ')}; by thread (median round): ${byThread(middleOf(runs.pg))}`,
  )
}
// The stage profile of the round whose receiver count is the median one.
printStages(middleOf(runs.receiver), await receiverProfile(WARM + N), WARM + N)
recordTarget({
  bench: 'webhooks',
  measure: MEASURE,
  figure: `${ratio.toFixed(2)}x`,
  target: '<= 2x',
  met: ratio <= 2,
})
