import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { packAll } from './pack.ts'

// What `npm i @service-sdk/open` brings into a fresh project: the tarballs of open and core,
// installed with plain npm. ali-oss is the reference the SDK's requests are tested against, not a
// dependency of any published package.

const work = mkdtempSync(join(tmpdir(), 'service-sdk-open-install-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The packages under node_modules (scoped ones counted one by one) and their bytes on disk. */
function installed(modules: string): { names: string[]; bytes: number } {
  const names: string[] = []
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue
    if (entry.startsWith('@'))
      for (const scoped of readdirSync(join(modules, entry))) names.push(`${entry}/${scoped}`)
    else names.push(entry)
  }
  const size = (path: string): number => {
    const stats = statSync(path)
    if (!stats.isDirectory()) return stats.size
    return readdirSync(path).reduce((sum, entry) => sum + size(join(path, entry)), 0)
  }
  return { names, bytes: size(modules) }
}

test('npm i @service-sdk/open installs no ali-oss, and few packages', () => {
  const packed = packAll(join(work, 'packs'), ['@service-sdk/core', '@service-sdk/open'])
  const project = join(work, 'project')
  execFileSync('mkdir', ['-p', project])
  const dependencies = Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`]))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', private: true, dependencies }))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    stdio: 'pipe',
  })
  const modules = join(project, 'node_modules')
  const { names, bytes } = installed(modules)
  console.info(
    `npm i @service-sdk/open: ${names.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MiB (${names.join(', ')})`,
  )
  expect(existsSync(join(modules, 'ali-oss'))).toBe(false)
  expect(names).toContain('@service-sdk/open')
  // ali-oss brought 96 packages and 31 MB; what is left is the SDK, hono, mime and zod.
  expect(names.length).toBeLessThanOrEqual(10)
}, 300_000)
