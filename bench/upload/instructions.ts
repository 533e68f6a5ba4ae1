/**
 * The uploader's cost per small file counted in instructions (callgrind, ../lib/callgrind.ts),
 * which the machine's load does not move: uploadMany (sdk.ts) against raw PUTs (raw.ts) and raw
 * PUTs that check each file's CRC-64 as the SDK does (raw.ts `crc`). The upload bench's CPU time
 * per file moved by a fifth between processes of one build; instruction counts do not depend on
 * what else the machine runs.
 * Each uploader runs under valgrind twice, over WARM files and over WARM + N (the simulator runs
 * in a process of its own, not under valgrind): the difference over N is the cost per 64 KiB
 * file, by thread (the main one; the runtime's helpers: V8's compilers and garbage collector,
 * libuv's pool). Kernel time (the socket and file syscalls) is not counted. Information, no
 * target. About 5 minutes; needs valgrind.
 * WARM is 1100 by default, the steady state the upload bench's CPU target is about (its second
 * run of 1,000 files, after 1,100). A second table splits the helper threads' instructions by work
 * (lib/callgrind.ts `helperWork`). After only 100 files the SDK's helper threads still spent 692k
 * instructions per file, 648k of it V8 compiling: Maglev and TurboFan compiling the per-file path,
 * and the tier-up of the WebAssembly HTTP parser behind Node's fetch (undici's llhttp), which the
 * material-save calls reach after about 1,000 files. After 1,100 files: 70k, 67k of it compiling
 * (at 8c3009d).
 *
 *     pnpm --filter @service-sdk/bench exec node upload/instructions.ts      (N=1000, WARM=1100)
 */
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  callgrindArgs,
  type HelperWork,
  hasValgrind,
  helperWork,
  type ThreadCounts,
  threadCounts,
} from '../lib/callgrind.ts'
import { printTable } from '../lib/report.ts'
import { smallFiles } from './files.ts'
import { childProcess, firstLine } from './processes.ts'

const N = Number(process.env.N ?? 1000)
const WARM = Number(process.env.WARM ?? 1100)

if (!hasValgrind()) {
  console.error('upload/instructions.ts needs valgrind (apt-get install valgrind)')
  process.exit(1)
}
console.log(`upload instructions: about 5 minutes (3 uploaders under valgrind, ${N} files after ${WARM})`)
const work = await mkdtemp(join(tmpdir(), 'bench-upload-instructions-'))
const files = await smallFiles(join(work, 'files'), WARM + N)
const warmup = files.slice(0, WARM)
const timed = files.slice(WARM)

const server = childProcess('server.ts', [join(work, 'store')])
try {
  const { urls, credentials } = JSON.parse(await firstLine(server)) as {
    urls: { open: string }
    credentials: { openToken: { type: string; value: string } }
  }
  /** Each uploader's script and arguments (besides the files, the warm-up and the simulator's). */
  const uploaders: Record<string, [string, object]> = {
    'uploadMany (the SDK)': ['sdk.ts', { many: true }],
    'raw PUTs': ['raw.ts', { chunk: 8 << 20, parallel: 8 }],
    'raw PUTs checking CRC-64': ['raw.ts', { chunk: 8 << 20, parallel: 8, crc: true }],
  }
  type Counts = ThreadCounts & HelperWork
  /** The instructions one uploader process executed over `warmup` then `list`, by thread role and helper work. */
  const count = async (script: string, args: object, list: string[]): Promise<Counts> => {
    const reset = await fetch(`${urls.open}/_sim/reset`, { method: 'POST' })
    if (!reset.ok) throw new Error(`the simulator's reset answered ${reset.status}`)
    const dir = await mkdtemp(join(tmpdir(), 'bench-upload-callgrind-'))
    try {
      const all = { openUrl: urls.open, token: credentials.openToken, warmup, files: list, ...args }
      const run = spawnSync(
        'valgrind',
        [...callgrindArgs(dir), process.execPath, join(import.meta.dirname, script), JSON.stringify(all)],
        { stdio: 'ignore' },
      )
      if (run.status !== 0) throw new Error(`${script} under valgrind exited with ${run.status}`)
      return { ...threadCounts(dir), ...helperWork(dir) }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  const perFile: Record<string, { main: number; helpers: number } & HelperWork> = {}
  for (const [name, [script, args]] of Object.entries(uploaders)) {
    const warm = await count(script, args, [])
    const full = await count(script, args, timed)
    // No SQLite in an uploader: every thread but the main one is a helper.
    const others = (c: ThreadCounts) => c.sqlite + c.helpers
    const each = (of: (c: Counts) => number) => (of(full) - of(warm)) / N
    perFile[name] = {
      main: each((c) => c.main),
      helpers: each(others),
      compiling: each((c) => c.compiling),
      collecting: each((c) => c.collecting),
    }
  }
  const k = (n: number) => `${(n / 1000).toFixed(0)}k`
  const all = (name: string) => (perFile[name]?.main ?? 0) + (perFile[name]?.helpers ?? 0)
  const ratio = (name: string, base: string) => (all(name) / all(base)).toFixed(2)
  printTable(`Instructions per 64 KiB file (callgrind; ${N} files after ${WARM})`, [
    ['uploader', 'main thread', 'helper threads', 'all', '÷ raw', '÷ raw checking CRC-64'],
    ...Object.keys(uploaders).map((name) => [
      name,
      k(perFile[name]?.main ?? 0),
      k(perFile[name]?.helpers ?? 0),
      k(all(name)),
      ratio(name, 'raw PUTs'),
      ratio(name, 'raw PUTs checking CRC-64'),
    ]),
  ])
  // Compiling is a cost per process that the warm-up may not have paid yet (see WARM above).
  printTable("The helper threads' instructions per file, by work", [
    ['uploader', 'V8 compiling', 'garbage collection', 'other (libuv pool, ...)'],
    ...Object.keys(uploaders).map((name) => {
      const { helpers = 0, compiling = 0, collecting = 0 } = perFile[name] ?? {}
      return [name, k(compiling), k(collecting), k(helpers - compiling - collecting)]
    }),
  ])
} finally {
  server.kill('SIGTERM')
  await once(server, 'exit')
  await rm(work, { recursive: true, force: true })
}
