/**
 * Counting instructions with valgrind's callgrind: what a process executes, counted the same way
 * whatever else the machine is doing (CPU time on a shared 2-core machine varied by a third
 * between runs). Kernel time (syscalls, fsync) is not counted. Used by webhooks/instructions.ts
 * and upload/instructions.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Whether valgrind runs here (apt-get install valgrind). */
export function hasValgrind(): boolean {
  return spawnSync('valgrind', ['--version']).status === 0
}

/**
 * valgrind's arguments for a callgrind run writing one file per thread (`out-01`...) into `dir`.
 * `window`: nothing is counted until `countFrom`, and the counts are those `dumpCounts` writes
 * (`out.1-01`...): the program runs uninstrumented until then, several times faster.
 */
export function callgrindArgs(dir: string, options: { window?: boolean } = {}): string[] {
  return [
    '--tool=callgrind',
    '--separate-threads=yes',
    `--callgrind-out-file=${join(dir, 'out')}`,
    ...(options.window ? ['--instr-atstart=no'] : []),
  ]
}

/** Starts counting in a run started with `window` (valgrind's callgrind_control, synchronous). */
export function countFrom(pid: number): void {
  execFileSync('callgrind_control', ['--instr=on', String(pid)], { stdio: 'ignore' })
  execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' })
}

/** Writes what was counted since `countFrom`: read it with `threadCounts(dir, 'window')`. */
export function dumpCounts(pid: number): void {
  execFileSync('callgrind_control', ['--dump=window', String(pid)], { stdio: 'ignore' })
}

/** Instructions of one callgrind run (--separate-threads=yes), by thread role. */
export interface ThreadCounts {
  main: number
  /** Threads running SQLite's virtual machine (the SQLite store's thread). */
  sqlite: number
  /** Every other thread: V8's garbage collector and compilers, libuv's pool. */
  helpers: number
}

/** Whether a callgrind file of `dir` is the main thread's: thread 1 (or the only file). */
function isMainThread(name: string): boolean {
  return /-0*1$/.test(name) || name === 'out'
}

/**
 * Which files of `dir` hold the counts: those written at the process's exit (`out`, `out-01`...),
 * or by `dumpCounts` (`out.1-01`...).
 */
function countFiles(dir: string, from: 'exit' | 'window'): string[] {
  const pattern = from === 'window' ? /^out\.1-\d+$/ : /^out(-\d+)?$/
  return readdirSync(dir).filter((name) => pattern.test(name))
}

/** Every thread's totals from the callgrind files in `dir`: thread 1 is the main one. */
export function threadCounts(dir: string, from: 'exit' | 'window' = 'exit'): ThreadCounts {
  const counts: ThreadCounts = { main: 0, sqlite: 0, helpers: 0 }
  for (const name of countFiles(dir, from)) {
    const text = readFileSync(join(dir, name), 'utf8')
    const line = text.split('\n').find((l) => l.startsWith('totals:') || l.startsWith('summary:'))
    const total = Number(line?.split(/\s+/)[1] ?? 0)
    if (isMainThread(name)) counts.main += total
    else if (text.includes('sqlite3VdbeExec')) counts.sqlite += total
    else counts.helpers += total
  }
  return counts
}

/** What the helper threads' instructions went to (a subset of ThreadCounts' `helpers`). */
export interface HelperWork {
  /**
   * V8 compiling: Sparkplug, Maglev, TurboFan, and WebAssembly's validation and tier-up (each a
   * job on a worker thread).
   */
  compiling: number
  /** The garbage collector's parallel and concurrent jobs (scavenges, marking, sweeping). */
  collecting: number
}

/** The jobs of each kind, as callgrind_annotate names their entry points (V8 of Node 24). */
const COMPILING =
  /BackgroundCompileJob::Run\(|ValidateFunctionsTask::Run\(|ConcurrentBaselineCompiler::JobDispatcher::Run\(|MaglevConcurrentDispatcher::JobTask::Run\(|OptimizingCompileTaskExecutor::CompileTask::Run\(/
const COLLECTING =
  /ScavengerCollector::JobTask::Run\(|ConcurrentMarking::JobTask\w*::Run\(|Sweeper::\w*Job::Run\(|SweepingJob::Run\(/

/**
 * The helper threads' instructions (every file but the main thread's) by kind: each job's entry
 * point's inclusive count, from `callgrind_annotate --inclusive=yes` (valgrind's own tool).
 */
export function helperWork(dir: string, from: 'exit' | 'window' = 'exit'): HelperWork {
  const work: HelperWork = { compiling: 0, collecting: 0 }
  for (const name of countFiles(dir, from).filter((n) => !isMainThread(n))) {
    const text = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', join(dir, name)], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    })
    for (const line of text.split('\n')) {
      const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line)
      if (!match) continue
      const count = Number((match[1] as string).replaceAll(',', ''))
      if (COMPILING.test(match[2] as string)) work.compiling += count
      else if (COLLECTING.test(match[2] as string)) work.collecting += count
    }
  }
  return work
}
