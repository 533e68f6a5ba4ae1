/**
 * The receiver's cost per event against the no-op Hono handler's (the webhooks bench's "CPU per
 * event" target), counted in instructions: each server of server.ts runs under valgrind's
 * callgrind, which counts what the process executes (every thread) the same way whatever else
 * the machine is doing, where CPU time on a shared 2-core machine varied by a third between
 * runs. Kernel time (fsync, socket writes) is not counted. Counts still vary by about 5% between
 * runs of one build (V8's compiler and garbage-collector threads, how many requests each turn of
 * the event loop takes): ROUNDS runs each and reports the medians. (`node --single-threaded`
 * steadied the counts but changed them: the no-op cost half as much again.)
 *
 * Each server is run twice, with WARM and with WARM + N requests (autocannon, 16 connections;
 * the receiver's backlog processed before it stops): the difference over N is the cost per
 * request without start-up and JIT warm-up. About 4 minutes a round; needs valgrind.
 *
 *     pnpm --filter @service-sdk/bench exec node webhooks/instructions.ts      (N=2000, WARM=500, ROUNDS=1)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateWebhookToken } from '@service-sdk/webhooks'
import autocannon from 'autocannon'
import { listeningUrl } from '../lib/listening.ts'
import { median } from '../lib/report.ts'
import { eventBody } from './event-body.ts'

const N = Number(process.env.N ?? 2000)
const WARM = Number(process.env.WARM ?? 500)
const ROUNDS = Number(process.env.ROUNDS ?? 1)

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('instructions.ts needs valgrind (apt-get install valgrind)')
  process.exit(1)
}

/** Instructions the server executed, all threads, from start to SIGTERM, after `requests`. */
async function instructions(mode: 'receiver' | 'noop', requests: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'))
  const token = generateWebhookToken()
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${join(dir, 'out')}`,
      process.execPath,
      join(import.meta.dirname, 'server.ts'),
      mode,
      token,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  try {
    const url = await listeningUrl(child, `${mode} under valgrind`)
    const result = await autocannon({
      url: `${url}/webhooks/${token}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      connections: 16,
      amount: requests,
      requests: [
        { setupRequest: (request: Record<string, unknown>) => ({ ...request, body: eventBody('ins') }) },
      ],
    })
    if (result['2xx'] !== requests) throw new Error(`${mode}: ${requests - result['2xx']} requests failed`)
    if (mode === 'receiver') await drained(url)
    await stopped(child)
    return totals(join(dir, 'out'))
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

function totals(file: string): number {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('totals:'))
  if (!line) throw new Error(`no totals in ${file} (${readdirSync(join(file, '..')).join(', ')})`)
  return Number(line.split(/\s+/)[1])
}

const runs: Record<'noop' | 'receiver', number[]> = { noop: [], receiver: [] }
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ['noop', 'receiver'] as const) {
    const warm = await instructions(mode, WARM)
    runs[mode].push(((await instructions(mode, WARM + N)) - warm) / N)
  }
}
const noop = median(runs.noop)
const receiver = median(runs.receiver)
const ratio = receiver / noop
const k = (n: number) => `${Math.round(n / 1000).toLocaleString('en')}k`
console.log(
  `\nInstructions per request (callgrind, whole process; ${N} requests after ${WARM}; ${ROUNDS} rounds, medians)`,
)
console.log('| no-op Hono | receiver (SQLite FULL, processing on) | ratio |')
console.log('|---|---|---|')
console.log(`| ${k(noop)} | ${k(receiver)} | ${ratio.toFixed(2)}x |`)
console.log(`per round: no-op ${runs.noop.map(k).join(', ')}; receiver ${runs.receiver.map(k).join(', ')}`)
console.log(
  `target receiver cost per event <= 2x the no-op's, in instructions: ${ratio <= 2 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`,
)
