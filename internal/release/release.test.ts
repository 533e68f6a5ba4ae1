import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { packagesMissingChangesets } from '../../scripts/changeset-check.ts'
import { pendingChangesets, publishedPackages } from '../../scripts/lib/workspace.ts'
import { dryRun } from '../../scripts/release.ts'

const BUMPS = ['patch', 'minor', 'major'] as const

/** The fixed group's next version: the highest pending bump applied to the current version. */
function expectedVersion(current: string): string {
  const highest = Math.max(
    -1,
    ...pendingChangesets().flatMap((c) => Object.values(c.releases).map((b) => BUMPS.indexOf(b))),
  )
  const [major = 0, minor = 0, patch = 0] = current.split('.').map(Number)
  if (highest === 2) return `${major + 1}.0.0`
  if (highest === 1) return `${major}.${minor + 1}.0`
  if (highest === 0) return `${major}.${minor}.${patch + 1}`
  return current
}

describe('pnpm release --dry-run', () => {
  const releases = dryRun()
  const current = publishedPackages()

  test('versions every published package together (the fixed group) by the highest pending bump', () => {
    expect(releases.map((r) => r.name).sort()).toEqual(current.map((p) => p.name).sort())
    const version = expectedVersion(current[0]!.version)
    // Right after a release nothing is pending, and the versions stay.
    expect(version === current[0]!.version).toBe(pendingChangesets().length === 0)
    for (const r of releases) expect(r, r.name).toMatchObject({ version })
  })

  test('writes each package’s CHANGELOG entry from the changesets that name it', () => {
    for (const r of releases) {
      const own = pendingChangesets().filter((c) => c.releases[r.name])
      for (const c of own) expect(r.changelog, `${r.name} <- ${c.file}`).toContain(c.summary.split('\n')[0])
    }
  })

  test('would publish the built files, the README and the LICENSE of each package', () => {
    for (const r of releases) {
      expect(r.files, r.name).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']))
      expect(
        r.files.some((f) => f.startsWith('dist/')),
        r.name,
      ).toBe(true)
      expect(
        r.files.some((f) => f.startsWith('src/') || f.includes('.test.')),
        r.name,
      ).toBe(false)
    }
  })
})

describe('the changeset check', () => {
  test('the repository: every published package whose source changed has a pending changeset', () => {
    expect(packagesMissingChangesets()).toEqual([])
  })

  const repo = mkdtempSync(join(tmpdir(), 'changeset-check-'))
  afterAll(() => rmSync(repo, { recursive: true, force: true }))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'pipe' })
  const write = (file: string, text: string) => {
    mkdirSync(join(repo, file, '..'), { recursive: true })
    writeFileSync(join(repo, file), text)
  }
  const manifest = (version: string) => JSON.stringify({ name: '@x/a', version }, null, 2)

  test('a fixture repository: a source change without a changeset fails until one names the package, and again after a release', () => {
    git('init', '-q')
    write('packages/a/package.json', manifest('0.0.0'))
    write('packages/a/src/index.ts', 'export const a = 1\n')
    write('.changeset/README.md', '# changesets\n')
    git('add', '.')
    git('commit', '-qm', 'start')
    expect(packagesMissingChangesets(repo)).toEqual([{ name: '@x/a', changed: ['packages/a/src/index.ts'] }])

    write('.changeset/a.md', '---\n"@x/a": minor\n---\n\nA feature.\n')
    expect(packagesMissingChangesets(repo)).toEqual([])

    // The release: version bumped, changeset consumed; nothing changed since.
    rmSync(join(repo, '.changeset/a.md'))
    write('packages/a/package.json', manifest('0.1.0'))
    git('add', '-A')
    git('commit', '-qm', 'release')
    expect(packagesMissingChangesets(repo)).toEqual([])

    write('packages/a/src/new.ts', 'export const b = 2\n')
    write('packages/a/src/new.test.ts', 'test\n')
    expect(packagesMissingChangesets(repo)).toEqual([{ name: '@x/a', changed: ['packages/a/src/new.ts'] }])
  })
})
