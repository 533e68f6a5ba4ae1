/**
 * CPU time spent by the local PostgreSQL server (every `postgres` process: backends, WAL writer,
 * checkpointer...), from /proc, in microseconds. On one machine the server shares the cores with
 * the load generator and the receivers, so its CPU per event belongs in the budget beside theirs.
 * `undefined` where /proc is not readable (not Linux) or no postgres process is visible (a remote
 * server): the bench then prints no budget.
 */
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICK_MICROS = 10_000

/** CPU time so far of each postgres process, by pid; `undefined` when none can be read. */
export function postgresCpuSnapshot(): Map<string, number> | undefined {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return undefined
  }
  const snapshot = new Map<string, number>()
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue // exited meanwhile
    }
    const close = stat.lastIndexOf(')')
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue
    // Fields after "pid (comm) ": state is 0, utime 11, stime 12.
    const fields = stat.slice(close + 2).split(' ')
    snapshot.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MICROS)
  }
  return snapshot.size > 0 ? snapshot : undefined
}

/**
 * CPU time the postgres processes spent since `before`: the growth of those still there plus all
 * of those started since (a process that exited meanwhile takes its last interval with it: short
 * of the truth by that much, never negative).
 */
export function postgresCpuSince(before: Map<string, number> | undefined): number | undefined {
  const after = postgresCpuSnapshot()
  if (!before || !after) return undefined
  let total = 0
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0)
  return total
}

/** CPU time of this process (the load generator or the INSERT loop), in microseconds. */
export function ownCpuMicros(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}
