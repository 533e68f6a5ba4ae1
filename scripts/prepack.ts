// Every published package's `prepack` (run by `pnpm pack` and `pnpm publish`): a tarball never
// ships without `dist`. In a checkout, a missing `dist`, or one older than a file of `src/`, the
// build's configuration or package.json (core's build embeds the version), is built first
// (`tsdown`); where there is no `src/` to build from (the release dry run's copy of the
// workspace), a missing `dist` stops the pack with what to run, and an existing one is packed.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Modification times of every file under `dir` (recursively); none when it does not exist. */
function mtimes(dir: string): number[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs)
}

/** Why `dir`'s package must be built before it is packed, or `undefined` when `dist` is current. */
export function buildReason(dir: string): string | undefined {
  const built = mtimes(join(dir, 'dist'))
  if (built.length === 0) return 'it has no dist'
  const inputs = [
    ...mtimes(join(dir, 'src')),
    ...['tsdown.config.ts', 'package.json']
      .filter((file) => existsSync(join(dir, file)))
      .map((file) => statSync(join(dir, file)).mtimeMs),
  ]
  return Math.max(...inputs) > Math.min(...built) ? 'its dist is older than its sources' : undefined
}

function fail(message: string): never {
  console.error(`prepack: ${message}`)
  process.exit(1)
}

if (import.meta.main) {
  const dir = process.cwd()
  const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name as string
  const hasSource = existsSync(join(dir, 'src'))
  const reason = hasSource ? buildReason(dir) : mtimes(join(dir, 'dist')).length ? undefined : 'no dist'
  if (reason !== undefined) {
    if (!hasSource)
      fail(
        `${name} cannot be packed: it has no dist and no src to build it from; run \`pnpm build\` in the workspace`,
      )
    console.error(`prepack: building ${name} first (${reason})`)
    try {
      // Its output on stderr: `pnpm pack --json` prints the tarball's report on stdout.
      execFileSync('pnpm', ['exec', 'tsdown'], { cwd: dir, stdio: ['ignore', 2, 2] })
    } catch {
      fail(`${name} cannot be packed: its build (tsdown) failed, see above`)
    }
    if (mtimes(join(dir, 'dist')).length === 0) fail(`${name} cannot be packed: its build wrote no dist`)
  }
}
