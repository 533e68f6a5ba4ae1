// Fails when a published package's source changed since its last release and no pending
// changeset names it (`pnpm changeset:check`; also run by the release tests).
import { execFileSync } from 'node:child_process'
import { pendingChangesets, publishedPackages, root } from './lib/workspace.ts'

const git = (args: string[], cwd: string) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

/** Git's empty tree: before a package's first release, all of its source counts as changed. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

/** The commit that last changed the package's version (its last release), or the empty tree. */
function lastRelease(dir: string, cwd: string): string {
  const bumps = git(['log', '--format=%H', '-G', '"version":', '--', `${dir}/package.json`], cwd).split('\n')
  // The oldest commit touching the version line is the one that created the package, not a release.
  const releases = bumps.filter(Boolean).slice(0, -1)
  return releases[0] ?? EMPTY_TREE
}

/** Packages whose src/ changed since their last release (committed or not) without a changeset. */
export function packagesMissingChangesets(cwd = root): { name: string; changed: string[] }[] {
  const named = new Set(pendingChangesets(cwd).flatMap((c) => Object.keys(c.releases)))
  return publishedPackages(cwd)
    .filter((p) => !named.has(p.name))
    .map((p) => {
      const since = lastRelease(p.dir, cwd)
      const committed = git(['diff', '--name-only', since, '--', `${p.dir}/src`], cwd)
      const untracked = git(['ls-files', '--others', '--exclude-standard', '--', `${p.dir}/src`], cwd)
      const changed = [...committed.split('\n'), ...untracked.split('\n')].filter(
        (f) => f && !/\.test(-d)?\.ts$/.test(f),
      )
      return { name: p.name, changed }
    })
    .filter((p) => p.changed.length > 0)
}

if (import.meta.main) {
  const missing = packagesMissingChangesets()
  for (const { name, changed } of missing) {
    console.error(
      `${name}: ${changed.length} source file(s) changed since its last release, no changeset names it:`,
    )
    for (const file of changed.slice(0, 10)) console.error(`  ${file}`)
  }
  if (missing.length > 0) {
    console.error(
      'Add one with `pnpm changeset` (a patch for a change users cannot see, so the release still carries it).',
    )
    process.exit(1)
  }
  console.log('changesets: every published package whose source changed has a pending changeset')
}
