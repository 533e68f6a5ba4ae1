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

export function postgresCpuMicros(): number | undefined {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return undefined
  }
  let total = 0
  let seen = false
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
    total += (Number(fields[11]) + Number(fields[12])) * TICK_MICROS
    seen = true
  }
  return seen ? total : undefined
}

/** CPU time of this process (the load generator or the INSERT loop), in microseconds. */
export function ownCpuMicros(): number {
  const { user, system } = process.cpuUsage()
  return user + system
}
