/**
 * The receiver's cost per event against the no-op Hono handler's (the webhooks bench's "CPU per
 * event" target, <= 2.0x), counted in instructions: each server of server.ts runs under valgrind's
 * callgrind, which counts what the process executes (every thread) the same way whatever else
 * the machine is doing, where CPU time on a shared 2-core machine varied by a third between
 * runs. Kernel time (fsync, socket writes) is not counted: the bench's CPU-time figure has it.
 * Counts still vary between runs of one build (by up to 3% within one of the two modes below:
 * V8's compiler and garbage-collector threads, how many requests each turn of the event loop
 * takes): ROUNDS runs each and reports the medians. (`node --single-threaded` steadied the counts but changed them: the no-op cost
 * half as much again.)
 *
 * Steady state, not start-up: each server runs uninstrumented (several times faster) through WARM
 * events and their processing, then callgrind counts the next N events and their processing
 * (lib/callgrind.ts `countFrom`, `dumpCounts`), all on the same 16 keep-alive connections
 * (measure/closed-load.ts). The receiver announces what it has processed on its output, so no
 * request waits for its backlog inside the count. Why (one round each, at 6f4f4f6):
 * - counted from the start (the earlier method: runs of 500 and 2,500 events, the difference),
 *   the no-op was 245k a request and the receiver 545k (2.23x, `pnpm bench` at 5a428ac); a
 *   third of the no-op's count was its JIT compiling its first requests (helper threads 85k);
 * - new autocannon connections for the counted requests made the server deoptimize and recompile
 *   its HTTP code inside the count (the no-op 120k, the receiver 391k); so did one request for
 *   the backlog before it (the receiver 403k against 297k without).
 * The receiver's helper threads still compile a few late-optimized functions inside the count
 * (about 20k a request in a 5,000-event window): printed beside the total.
 * A receiver's count falls in one of two modes from one process to the next (about 300k or
 * 330k for the SQLite one). In the higher one, V8 builds the object literal of node's
 * `process.nextTick` through the runtime, four calls a tick at about 1,300 instructions each,
 * for the six ticks node's HTTP streams schedule a request: 32k to 35k a request, in both
 * receivers; the no-op was not seen in it. Natively too: in one of three profiled runs of the
 * SQLite receiver, `nextTick`'s own time was 189 ms against 27 and 48 ms. Seen with
 * `%DebugPrint(process.nextTick)` (`--allow-natives-syntax`) after 50,000 events: the literal's
 * first property's inline cache is monomorphic and the four after it megamorphic, and a tick
 * object holds its async ids as boxed doubles in fields of the most general representation; so
 * those fields changed representation on the way, and each change made a new map. What starts
 * that in a process is not known (not Maglev alone: one of two runs without it was still in the
 * higher mode). The rounds' median is what the target reads.
 * The Express + SQLite peer (peers/express-sqlite.ts) is counted too, as information.
 * Then where the receiver's instructions go, by stage (measure/stages.ts: callgrind's counts by
 * thread, the main thread split by a CPU profile of the same load). About 2 minutes a round;
 * needs valgrind.
 *
 * INSTRUCTIONS_PG=1 also counts the ingest-only receiver on postgresStore (server.ts `pg`, in a
 * schema of its own at POSTGRES_URL, default the local trust database `test`), against the same
 * no-op: information, no target (the webhooks bench's PostgreSQL target is in CPU time under load,
 * where run-to-run spread is about 0.1 of the ratio). PostgreSQL's own processes are not counted.
 * About a minute more a round.
 *
 *     pnpm --filter @service-sdk/bench exec node webhooks/instructions.ts      (N=5000, WARM=50000, ROUNDS=1)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateWebhookToken } from '@service-sdk/webhooks'
import {
  callgrindArgs,
  countFrom,
  dumpCounts,
  type HelperWork,
  hasValgrind,
  helperWork,
  type ThreadCounts,
  threadCounts,
} from '../lib/callgrind.ts'
import type { CpuProfile } from '../lib/cpu-profile.ts'
import { listeningUrl } from '../lib/listening.ts'
import { dropSchema } from '../lib/postgres.ts'
import { median, recordTarget } from '../lib/report.ts'
import { type ClosedLoad, closedLoad } from './measure/closed-load.ts'
import { printStages } from './measure/stages.ts'

const N = Number(process.env.N ?? 5000)
const WARM = Number(process.env.WARM ?? 50_000)
const ROUNDS = Number(process.env.ROUNDS ?? 1)
const MEASURE = 'SQLite receiver instructions per event ÷ no-op Hono (callgrind)'
const WITH_PG = process.env.INSTRUCTIONS_PG === '1'
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
type Mode = 'receiver' | 'noop' | 'pg' | 'peer'

console.log(
  `instructions: about ${2 * ROUNDS} minutes (${ROUNDS} rounds under valgrind, ${N} requests counted after ${WARM})`,
)
if (N % 1000 !== 0 || WARM % 1000 !== 0) {
  // The receiver announces every 1,000th event processed (server.ts).
  console.error(`instructions.ts: N and WARM must be multiples of 1,000 (N=${N}, WARM=${WARM})`)
  process.exit(1)
}
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

/** Instructions per event of one server, by thread role, and what its helper threads did. */
interface Counted {
  counts: ThreadCounts
  work: HelperWork
}

/**
 * What the server executes for N events in steady state: it runs uninstrumented through WARM
 * events (its backlog processed), then callgrind counts the next N and their processing, on the
 * same 16 keep-alive connections (measure/closed-load.ts).
 */
async function instructions(mode: Mode): Promise<Counted> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'))
  const token = generateWebhookToken()
  const schema = `bench_instructions_${randomBytes(4).toString('hex')}`
  const server =
    mode === 'peer'
      ? [join(import.meta.dirname, 'peers', 'express-sqlite.ts'), token]
      : [join(import.meta.dirname, 'server.ts'), mode, token, ...(mode === 'pg' ? [PG_URL, schema] : [])]
  const child = spawn('valgrind', [...callgrindArgs(dir, { window: true }), process.execPath, ...server], {
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let load: ClosedLoad | undefined
  try {
    const url = await listeningUrl(child, `${mode} under valgrind`)
    const processed = processedCounter(child)
    load = closedLoad(`${url}/webhooks/${token}`, 16)
    await load.send(WARM)
    if (mode === 'receiver') await processed(WARM)
    countFrom(child.pid!)
    await load.send(N)
    if (mode === 'receiver') await processed(WARM + N)
    dumpCounts(child.pid!)
    const { main, sqlite, helpers } = threadCounts(dir, 'window')
    const work = helperWork(dir, 'window')
    if (main === 0) throw new Error(`no callgrind counts in ${dir}`)
    return {
      counts: { main: main / N, sqlite: sqlite / N, helpers: helpers / N },
      work: { compiling: work.compiling / N, collecting: work.collecting / N },
    }
  } finally {
    load?.close()
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
  let load: ClosedLoad | undefined
  try {
    const url = await listeningUrl(child, 'receiver')
    const processed = processedCounter(child)
    load = closedLoad(`${url}/webhooks/${token}`, 16)
    await load.send(requests)
    await processed(requests)
    await stopped(child)
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main one.
    const main = readdirSync(dir).find((name) => name.split('.')[4] === '0')
    if (!main) throw new Error(`no main-thread profile in ${dir}`)
    return JSON.parse(readFileSync(join(dir, main), 'utf8')) as CpuProfile
  } finally {
    load?.close()
    child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Waits until the receiver has processed `n` events (a multiple of 1,000), as it announces on its
 * standard output (server.ts), with no request to the server; rejects if it exits first.
 */
function processedCounter(child: ChildProcess): (n: number) => Promise<void> {
  let count = 0
  let waiting: { n: number; resolve: () => void; reject: (error: Error) => void } | undefined
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk
    for (const match of text.matchAll(/processed (\d+)\n/g)) count = Number(match[1])
    text = text.slice(text.lastIndexOf('\n') + 1)
    if (waiting && count >= waiting.n) waiting.resolve()
  })
  child.once('exit', (code) =>
    waiting?.reject(new Error(`the receiver exited (${code}) at ${count} processed`)),
  )
  return (n) =>
    count >= n ? Promise.resolve() : new Promise((resolve, reject) => (waiting = { n, resolve, reject }))
}

function stopped(child: ChildProcess): Promise<void> {
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  return exit
}

const sum = ({ counts: c }: Counted) => c.main + c.sqlite + c.helpers
const runs: Record<Mode, Counted[]> = { noop: [], receiver: [], pg: [], peer: [] }
/** The round whose total is the median one. */
const middleOf = (rounds: Counted[]) => rounds.find((c) => sum(c) === median(rounds.map(sum))) ?? rounds[0]!
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of WITH_PG
    ? (['noop', 'receiver', 'peer', 'pg'] as const)
    : (['noop', 'receiver', 'peer'] as const))
    runs[mode].push(await instructions(mode))
}
const noop = median(runs.noop.map(sum))
const receiver = median(runs.receiver.map(sum))
const ratio = receiver / noop
const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')}k`
console.log(
  `\nInstructions per request (callgrind, whole process; ${N} requests counted after ${WARM}; ${ROUNDS} rounds, medians)`,
)
console.log('| no-op Hono | receiver (SQLite FULL, processing on) | ratio |')
console.log('|---|---|---|')
console.log(`| ${k(noop)} | ${k(receiver)} | ${ratio.toFixed(2)}x |`)
console.log(
  `per round: no-op ${runs.noop.map(sum).map(k).join(', ')}; receiver ${runs.receiver.map(sum).map(k).join(', ')}`,
)
// By thread, so that the receiver's excess is read where it is (the no-op has no SQLite thread).
const byThread = ({ counts: c, work }: Counted) =>
  `main ${k(c.main)}, SQLite thread ${k(c.sqlite)}, helpers ${k(c.helpers)} (compiling ${k(work.compiling)}, collecting ${k(work.collecting)})`
console.log(
  `by thread (median round): no-op ${byThread(middleOf(runs.noop))}; receiver ${byThread(middleOf(runs.receiver))}`,
)
const peer = median(runs.peer.map(sum))
console.log(
  `Express + SQLite peer (information, no target; an INSERT and its fsync per request on the main thread, no processing): ${k(peer)} per request, ${(peer / noop).toFixed(2)}x the no-op's, the receiver ${(receiver / peer).toFixed(2)}x the peer's; per round ${runs.peer.map(sum).map(k).join(', ')}`,
)
if (WITH_PG) {
  const pgReceiver = median(runs.pg.map(sum))
  console.log(
    `PostgreSQL ingest-only receiver (information, no target): ${k(pgReceiver)} per request, ${(pgReceiver / noop).toFixed(2)}x the no-op's; per round ${runs.pg.map(sum).map(k).join(', ')}; by thread (median round): ${byThread(middleOf(runs.pg))}`,
  )
}
// The stage profile of the round whose receiver count is the median one.
printStages(middleOf(runs.receiver).counts, await receiverProfile(WARM + N), WARM + N)
recordTarget({
  bench: 'webhooks',
  measure: MEASURE,
  figure: `${ratio.toFixed(2)}x`,
  target: '<= 2x',
  met: ratio <= 2,
})
