import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { publishedPackages } from './pack.ts'

// `pnpm pack` of a published package never makes a tarball without `dist`: its `prepack`
// (scripts/prepack.ts) builds a missing or stale `dist`, and refuses when there is nothing to build
// from. Each package is packed from a copy of the workspace's manifests with that package's
// sources and no `dist` (its node_modules linked to the real one), so the workspace's own `dist`,
// which other tests read, is never touched.

const root = join(import.meta.dirname, '..', '..')
const work = mkdtempSync(join(tmpdir(), 'service-sdk-prepack-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A copy of the workspace's top-level files and every package's manifest; `withSources` gets its sources too. */
function workspaceCopy(withSources: string | undefined): string {
  const copy = mkdtempSync(join(work, 'ws-'))
  for (const file of [
    'package.json',
    'pnpm-workspace.yaml',
    '.pnpmfile.cjs',
    'tsconfig.base.json',
    'LICENSE',
  ])
    cpSync(join(root, file), join(copy, file))
  cpSync(join(root, 'scripts'), join(copy, 'scripts'), { recursive: true })
  for (const { dir } of publishedPackages()) {
    const target = join(copy, 'packages', basename(dir))
    mkdirSync(target, { recursive: true })
    for (const entry of readdirSync(dir)) {
      if (entry === 'node_modules') symlinkSync(join(dir, entry), join(target, entry))
      else if (entry === 'package.json' || entry === 'README.md' || (dir === withSources && entry !== 'dist'))
        cpSync(join(dir, entry), join(target, entry), { recursive: true })
    }
  }
  return copy
}

function pack(dir: string): { code: number; files: string[]; stderr: string } {
  try {
    const out = execFileSync('pnpm', ['pack', '--json', '--pack-destination', join(work, 'tarballs')], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    return {
      code: 0,
      files: (JSON.parse(out) as { files: { path: string }[] }).files.map((f) => f.path),
      stderr: '',
    }
  } catch (error) {
    const { status, stderr } = error as { status: number; stderr: string }
    return { code: status, files: [], stderr }
  }
}

describe.each(publishedPackages().map((p) => [p.name, p.dir] as const))('%s', (name, dir) => {
  test('pnpm pack with dist removed builds it first: the tarball has dist/', () => {
    const copy = join(workspaceCopy(dir), 'packages', basename(dir))
    const packed = pack(copy)
    expect(packed.code, packed.stderr).toBe(0)
    expect(packed.files.filter((f) => f.startsWith('dist/')).length, name).toBeGreaterThan(0)
  }, 120_000)

  test('pnpm pack with neither dist nor src refuses, saying what to run', () => {
    const copy = join(workspaceCopy(undefined), 'packages', basename(dir))
    const packed = pack(copy)
    expect(packed.code).not.toBe(0)
    expect(packed.stderr).toContain(`prepack: ${name} cannot be packed: it has no dist and no src`)
    expect(packed.stderr).toContain('pnpm build')
  })
})
