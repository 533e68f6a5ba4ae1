/**
 * Counting instructions with valgrind's callgrind: what a process executes, counted the same way
 * whatever else the machine is doing (CPU time on a shared 2-core machine varied by a third
 * between runs). Kernel time (syscalls, fsync) is not counted. Used by webhooks/instructions.ts
 * and upload/instructions.ts.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Whether valgrind runs here (apt-get install valgrind). */
export function hasValgrind(): boolean {
  return spawnSync('valgrind', ['--version']).status === 0
}

/** valgrind's arguments for a callgrind run writing one file per thread (`out-01`...) into `dir`. */
export function callgrindArgs(dir: string): string[] {
  return ['--tool=callgrind', '--separate-threads=yes', `--callgrind-out-file=${join(dir, 'out')}`]
}

/** Instructions of one callgrind run (--separate-threads=yes), by thread role. */
export interface ThreadCounts {
  main: number
  /** Threads running SQLite's virtual machine (the SQLite store's thread). */
  sqlite: number
  /** Every other thread: V8's garbage collector and compilers, libuv's pool. */
  helpers: number
}

/** Every thread's totals from the callgrind files `out*` in `dir`: thread 1 is the main one. */
export function threadCounts(dir: string): ThreadCounts {
  const counts: ThreadCounts = { main: 0, sqlite: 0, helpers: 0 }
  for (const name of readdirSync(dir).filter((n) => n.startsWith('out'))) {
    const text = readFileSync(join(dir, name), 'utf8')
    const line = text.split('\n').find((l) => l.startsWith('totals:') || l.startsWith('summary:'))
    const total = Number(line?.split(/\s+/)[1] ?? 0)
    if (/-0*1$/.test(name) || name === 'out') counts.main += total
    else if (text.includes('sqlite3VdbeExec')) counts.sqlite += total
    else counts.helpers += total
  }
  return counts
}
