/**
 * Runs every benchmark (`<name>/<name>.bench.ts`, or the ones named on the command line), each
 * in its own process so one's memory and sockets do not disturb the next. Benchmarks import the
 * built packages (`pnpm bench` builds first): what users run.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const here = import.meta.dirname
const wanted = process.argv.slice(2)
const benches = readdirSync(here)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .map((name) => join(here, name, `${name}.bench.ts`))
  .filter((file) => existsSync(file))

let failed = 0
for (const file of benches) {
  process.stdout.write(`\n=== ${file.slice(here.length + 1)} ===\n`)
  const run = spawnSync(process.execPath, ['--expose-gc', file], { stdio: 'inherit' })
  if (run.status !== 0) failed++
}
process.exit(failed > 0 ? 1 : 0)
