// `pnpm release`: build, then publish the versioned packages (`changeset publish`).
// `pnpm release --dry-run [--json]`: in a throw-away copy of the workspace, apply the pending
// changesets if any (`changeset version`: versions of the fixed group, CHANGELOG.md entries), pack and
// `pnpm publish --dry-run` each package from the current build, and report what a release would
// publish. The repository is not touched.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pendingChangesets, publishedPackages, root } from './lib/workspace.ts'

const args = new Set(process.argv.slice(2))
const run = (command: string, argv: string[], cwd: string) =>
  execFileSync(command, argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const changeset = join(root, 'node_modules', '.bin', 'changeset')

export interface DryRelease {
  name: string
  version: string
  /** The CHANGELOG.md entry of this version. */
  changelog: string
  /** Files `pnpm publish --dry-run` would upload. */
  files: string[]
}

/**
 * Copies what versioning and packing read: manifests, changesets, the scripts (each package's
 * `prepack` is scripts/prepack.ts), and each package's shipped files.
 */
function workspaceCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'service-sdk-release-'))
  for (const file of [
    'package.json',
    'pnpm-workspace.yaml',
    '.pnpmfile.cjs',
    'LICENSE',
    '.changeset',
    'scripts',
  ])
    cpSync(join(root, file), join(copy, file), { recursive: true })
  for (const folder of ['packages', 'apps', 'internal', 'bench']) {
    cpSync(join(root, folder), join(copy, folder), {
      recursive: true,
      filter: (source) => !/[/\\](node_modules|\.turbo|src|test)$/.test(source),
    })
  }
  return copy
}

export function dryRun(): DryRelease[] {
  const copy = workspaceCopy()
  try {
    // Nothing pending (right after `changeset version`): the release publishes the versions as they
    // are (`changeset version` itself refuses to run on no changeset).
    if (pendingChangesets(copy).length > 0) run(changeset, ['version'], copy)
    return publishedPackages(copy).map(({ name, dir, version }) => {
      if (!existsSync(join(copy, dir, 'dist')))
        throw new Error(`${name} is not built: run \`pnpm build\` first`)
      const log = readFileSync(join(copy, dir, 'CHANGELOG.md'), 'utf8')
      const entry = log.split(/^## /m).find((section) => section.startsWith(`${version}\n`)) ?? ''
      const out = run('pnpm', ['publish', '--dry-run', '--no-git-checks', '--json'], join(copy, dir))
      const files = (JSON.parse(out.slice(out.indexOf('{'))) as { files: { path: string }[] }).files.map(
        (f) => f.path,
      )
      return { name, version, changelog: `## ${entry}`.trim(), files }
    })
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  if (args.has('--dry-run')) {
    const releases = dryRun()
    if (args.has('--json')) console.log(JSON.stringify(releases, null, 2))
    else
      for (const r of releases)
        console.log(
          `${r.name}@${r.version}: ${r.files.length} files\n${r.changelog.split('\n').slice(0, 12).join('\n')}\n`,
        )
  } else {
    execFileSync('pnpm', ['build'], { cwd: root, stdio: 'inherit' })
    execFileSync(changeset, ['publish'], { cwd: root, stdio: 'inherit' })
  }
}
