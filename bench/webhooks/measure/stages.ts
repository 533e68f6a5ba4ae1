/**
 * Where the SDK receiver's instructions go, by stage (for instructions.ts). Two measurements of
 * the same load: callgrind, run with one output file per thread, gives the instructions per
 * event of the main thread, of the SQLite store's thread and of the runtime's helper threads (V8's
 * garbage collector and compilers, libuv's pool); a V8 CPU profile of the main thread (the
 * receiver run again without valgrind, sampled every 100 µs) splits the main thread's share by
 * stage, each sampled frame mapped to the source file of packages/webhooks it belongs to (the
 * built files keep a `// src/<file>.ts` line above each module). The split of the main thread
 * is by time sampled, not instructions counted: a guide to where the next change should look.
 *
 * Stages: intake (HTTP: node:http, Hono, the adapters, intake/: body, token, receipt), parse
 * (events/: decode, the generated readers; dedupe and order keys), store hand-off (the main
 * thread's side of the store: stores/, the channel to the SQLite thread), commit (the SQLite
 * thread: statements, WAL, fsync, processing's own statements included), processing (worker/,
 * the processor), runtime (garbage collector, helper threads, native work the profile cannot
 * attribute).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { ThreadCounts } from '../../lib/callgrind.ts'
import { type CallFrame, type CpuProfile, groupedSelfTime } from '../../lib/cpu-profile.ts'
import { printTable } from '../../lib/report.ts'

// By the folders of packages/webhooks/src; any other file of the package is intake.
const STAGE_OF_SOURCE: Array<[RegExp, string]> = [
  [/^src\/events\/|^src\/intake\/(dedupe|order)-key\.ts$/, 'parse'],
  [/^src\/stores\//, 'store hand-off'],
  [
    /^src\/worker\/|^src\/receiver\/(processor|run-worker|retention)\.ts$|^src\/telemetry\/(trace|throttled-warning)\.ts$/,
    'processing',
  ],
]

/**
 * The regions of every built `.js` file of the package, by path. Fails when a stage's pattern
 * matches no module of the build: after the package's folders move, a stale pattern would
 * silently count that stage as intake.
 */
function builtRegions(dist: string): Map<string, string[]> {
  const files = new Map<string, string[]>()
  for (const file of readdirSync(dist).filter((name) => name.endsWith('.js')))
    files.set(join(dist, file), regions(join(dist, file)))
  const sources = [...files.values()].flat()
  for (const [pattern, stage] of STAGE_OF_SOURCE) {
    if (!sources.some((source) => pattern.test(source)))
      throw new Error(
        `stages.ts: no module of the webhooks build matches ${pattern} (${stage}); update the patterns`,
      )
  }
  return files
}

/** The `// src/<file>.ts` region of each line of a built file, by 0-based line. */
function regions(file: string): string[] {
  let current = ''
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => {
      const match = /^\/\/ (src\/\S+\.ts)$/.exec(line)
      if (match) current = match[1]!
      return current
    })
}

/**
 * Maps each sampled frame to a stage. The built files of packages/webhooks are read once each: the
 * top-level `.js` ones up front, any other when a frame first names it.
 */
function stageMapper(): (frame: CallFrame, parent: string | undefined) => string {
  const dist = `${dirname(createRequire(import.meta.url).resolve('@service-sdk/webhooks'))}/`
  const files = builtRegions(dist)
  return (frame, parent) => {
    if (frame.functionName === '(garbage collector)') return 'runtime: garbage collector (main thread)'
    if (frame.functionName === '(program)') return 'runtime: native, not attributed'
    if (frame.functionName === '(idle)') return 'idle'
    const path = frame.url.replace(/^file:\/\//, '')
    if (path.startsWith(dist)) {
      if (!files.has(path)) files.set(path, regions(path))
      const source = files.get(path)![frame.lineNumber] ?? ''
      return STAGE_OF_SOURCE.find(([pattern]) => pattern.test(source))?.[1] ?? 'intake'
    }
    const http = /hono|node:_http|node:net|node:internal\/(streams|http|stream_base)|webhooks\/server\.ts/
    if (http.test(frame.url) && (parent === undefined || parent.startsWith('runtime'))) return 'intake'
    return parent ?? 'runtime: event loop, promises, timers'
  }
}

/**
 * Print instructions per event by stage: `receiver` the per-event counts by thread role,
 * `profile` the main thread's CPU profile under the same load.
 */
export function printStages(receiver: ThreadCounts, profile: CpuProfile, requests: number): void {
  const groups = groupedSelfTime(profile, stageMapper()).filter((g) => g.group !== 'idle')
  const busy = groups.reduce((a, g) => a + g.micros, 0) || 1
  const rows: Array<[string, number]> = groups.map((g) => [`${g.group}`, (receiver.main * g.micros) / busy])
  rows.push(['commit (SQLite thread)', receiver.sqlite])
  rows.push(['runtime: helper threads (GC, compilers, libuv)', receiver.helpers])
  const total = rows.reduce((a, [, n]) => a + n, 0) || 1
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`
  printTable(
    `Where the receiver's instructions go, per event (callgrind by thread; the main thread's split by a CPU profile of ${requests} requests, by time sampled)`,
    [
      ['stage', 'instructions', 'share'],
      ...rows
        .sort((a, b) => b[1] - a[1])
        .map(([stage, n]) => [stage, k(n), `${((n / total) * 100).toFixed(1)}%`]),
    ],
  )
}
