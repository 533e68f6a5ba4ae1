/**
 * Runs every benchmark (`<name>/<name>.bench.ts`, or the ones named on the command line), each
 * in its own process so one's memory and sockets do not disturb the next. Benchmarks import the
 * built packages (`pnpm bench` builds first): what users run. Each bench appends its targets to
 * the JSON lines file BENCH_RESULTS names (a temporary file, see lib/report.ts `recordTarget`);
 * the run ends with one table of every target of every bench. About 14 minutes in all, alone on a
 * 2-core machine (each bench's header gives its share, an upper bound).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { printTable, readTargets, type TargetRow } from './lib/report.ts'

const here = import.meta.dirname
const wanted = process.argv.slice(2)
const benches = readdirSync(here)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .filter((name) => existsSync(join(here, name, `${name}.bench.ts`)))

const dir = mkdtempSync(join(tmpdir(), 'bench-results-'))
const results = join(dir, 'targets.jsonl')
const failed: string[] = []
try {
  for (const name of benches) {
    process.stdout.write(`\n=== ${name}/${name}.bench.ts ===\n`)
    const run = spawnSync(process.execPath, ['--expose-gc', join(here, name, `${name}.bench.ts`)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULTS: results },
    })
    if (run.status !== 0) failed.push(name)
  }
  dashboard(existsSync(results) ? readTargets(readFileSync(results, 'utf8')) : [])
} finally {
  rmSync(dir, { recursive: true, force: true })
}
process.exit(failed.length > 0 ? 1 : 0)

/** One table of every target recorded, then the benches that recorded none or failed. */
function dashboard(rows: TargetRow[]): void {
  printTable(`Targets of ${benches.join(', ')} (figures from this run; ratios measured together)`, [
    ['bench', 'measure', 'figure', 'target', 'met'],
    ...rows.map((r) => [r.bench, r.measure, r.figure, r.target, r.met ? 'yes' : 'NO']),
  ])
  const unmet = rows.filter((r) => !r.met).length
  console.log(`\n${rows.length - unmet} of ${rows.length} targets met`)
  const silent = benches.filter((name) => !rows.some((r) => r.bench === name) && !failed.includes(name))
  if (silent.length > 0) console.log(`no targets: ${silent.join(', ')}`)
  if (failed.length > 0) console.log(`FAILED (exit status not 0): ${failed.join(', ')}`)
}
