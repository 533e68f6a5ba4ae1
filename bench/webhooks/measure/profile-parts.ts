/**
 * A bench server's CPU profiles (profile.ts with PROFILE_DIR), summarised by part, in µs of
 * sampled time per request: set a receiver's tables beside the no-op's (`profile.ts noop`) to see
 * what it adds, and where. Sampled time is not CPU time: a thread waiting in a system call (an
 * fsync, a socket write that wakes PostgreSQL) is sampled as busy. A frame belongs to the package whose file it is; node's internals and native frames belong to
 * their caller's part, so the socket writes pg makes to PostgreSQL count as the pg client's, and
 * the ones @hono/node-server makes for a response as HTTP's.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type CallFrame, type CpuProfile, groupedSelfTime } from '../../lib/cpu-profile.ts'
import { printTable } from '../../lib/report.ts'

const PARTS: Array<[RegExp, string]> = [
  [/\/(pg|pg-protocol|pg-pool|pg-types)\//, 'pg client (its socket writes to PostgreSQL included)'],
  [/@service-sdk\/|\/packages\/[a-z]+\/dist\//, 'the SDK (webhooks, core)'],
  [/hono/, 'HTTP: Hono and @hono/node-server (response writes included)'],
  [/webhooks\/server\.ts/, 'the bench server'],
]

function partOf(frame: CallFrame, parent: string | undefined): string {
  if (frame.functionName === '(idle)') return 'idle'
  if (frame.functionName === '(garbage collector)') return 'garbage collector'
  if (frame.functionName === '(program)') return 'native, not attributed'
  const part = PARTS.find(([pattern]) => pattern.test(frame.url))?.[1]
  if (part) return part
  return parent ?? 'node: HTTP parsing, event loop, internals'
}

/** Prints one table per profile file of process `pid` in `dir` (the main thread's, then others'). */
export function printProfileParts(dir: string, pid: number, requests: number): void {
  const files = readdirSync(dir)
    .filter((f) => f.includes(`.${pid}.`) && f.endsWith('.cpuprofile'))
    .sort()
  for (const [i, file] of files.entries()) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile
    const groups = groupedSelfTime(profile, partOf).filter((g) => g.group !== 'idle')
    const busy = groups.reduce((a, g) => a + g.micros, 0) || 1
    printTable(
      `${i === 0 ? 'Main thread' : `Thread ${i}`} (${file}): sampled time per request, ${requests} requests`,
      [
        ['part', 'µs per request', 'share'],
        ...groups.map((g) => [
          g.group,
          (g.micros / requests).toFixed(2),
          `${((g.micros / busy) * 100).toFixed(1)}%`,
        ]),
      ],
    )
  }
}
