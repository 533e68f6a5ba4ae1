// `pnpm cycles` (part of `pnpm lint`): the import cycles of packages/*/src and apps/*/src, as
// dependency-cruiser finds them with lint/dependency-cruiser.cjs, against lint/known-cycles.json.
// Fails on a cycle that is not listed there, and on a listed one that no longer exists (then
// `pnpm cycles --update` removes it: the update only ever removes, so the list only shrinks).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cruise, type IViolation } from 'dependency-cruiser'
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options'

const root = join(import.meta.dirname, '..')
const CONFIG = join(root, 'lint/dependency-cruiser.cjs')
const KNOWN = join(root, 'lint/known-cycles.json')

/** lint/known-cycles.json: the cycles allowed to remain, each written `a.ts -> b.ts -> c.ts`. */
interface KnownCycles {
  about: string
  cycles: string[]
}

/** A cycle's modules, each importing the next and the last the first, joined by ` -> `. */
const SEPARATOR = ' -> '

/** `packages/<each>/src` and `apps/<each>/src`, relative to the root, where they exist. */
function sourceFolders(): string[] {
  return ['packages', 'apps'].flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}/src`)
      .filter((folder) => existsSync(join(root, folder))),
  )
}

/**
 * A cycle turned to start at its smallest path, so that the same cycle reported from any of its
 * modules reads the same.
 */
export function canonicalCycle(modules: readonly string[]): string {
  let start = 0
  for (let i = 1; i < modules.length; i++) if (modules[i]! < modules[start]!) start = i
  return [...modules.slice(start), ...modules.slice(0, start)].join(SEPARATOR)
}

/** Every distinct cycle of a violation list (rule `no-circular`), sorted. */
export function cyclesOf(violations: readonly IViolation[]): string[] {
  const cycles = new Set<string>()
  for (const violation of violations) {
    // `cycle` runs from the violation's `to` round to its `from`, which imports `to`.
    if (violation.rule.name === 'no-circular' && violation.cycle)
      cycles.add(canonicalCycle(violation.cycle.map((step) => step.name)))
  }
  return [...cycles].sort()
}

/** The import cycles among the modules under `folders` (paths relative to `cwd`, as it names them). */
export async function findCycles(folders: readonly string[], cwd = root): Promise<string[]> {
  const options = await extractDepcruiseOptions(CONFIG)
  const previous = process.cwd()
  // dependency-cruiser names modules relative to the working directory.
  process.chdir(cwd)
  try {
    const { output } = await cruise([...folders], options)
    if (typeof output === 'string') throw new TypeError('dependency-cruiser: expected a result object')
    return cyclesOf(output.summary.violations)
  } finally {
    process.chdir(previous)
  }
}

/** The current cycles that are not listed (`added`), and the listed ones that are gone. */
export function compareCycles(
  listed: readonly string[],
  current: readonly string[],
): { added: string[]; gone: string[] } {
  const canonical = (cycle: string) => canonicalCycle(cycle.split(SEPARATOR))
  const now = new Set(current.map(canonical))
  const known = new Set(listed.map(canonical))
  return {
    added: current.filter((cycle) => !known.has(canonical(cycle))),
    gone: listed.filter((cycle) => !now.has(canonical(cycle))),
  }
}

if (import.meta.main) {
  const update = process.argv.includes('--update')
  const known = JSON.parse(readFileSync(KNOWN, 'utf8')) as KnownCycles
  const current = await findCycles(sourceFolders())
  const { added, gone } = compareCycles(known.cycles, current)
  if (gone.length > 0 && update) {
    const cycles = known.cycles.filter((cycle) => !gone.includes(cycle))
    writeFileSync(KNOWN, `${JSON.stringify({ ...known, cycles }, null, 2)}\n`)
    console.log(`cycles: removed ${gone.length} cycle(s) that no longer exist from lint/known-cycles.json`)
  } else if (gone.length > 0) {
    console.error(`cycles: ${gone.length} cycle(s) of lint/known-cycles.json no longer exist (well done):`)
    for (const cycle of gone) console.error(`  ${cycle}`)
    console.error('Remove them with `pnpm cycles --update`, so the list only shrinks.')
  }
  if (added.length > 0) {
    console.error(`cycles: ${added.length} import cycle(s) not in lint/known-cycles.json:`)
    for (const cycle of added) console.error(`  ${cycle}`)
    console.error(
      'Break each: move what both sides need into a module both import (type-only imports count).',
    )
    if (gone.length > 0)
      console.error('A file of a listed cycle moved? Write its new path in lint/known-cycles.json.')
  }
  if (added.length > 0 || (gone.length > 0 && !update)) process.exit(1)
  console.log(`cycles: no new import cycle (${current.length} known, in lint/known-cycles.json)`)
}
