import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { root } from '../../scripts/lib/workspace.ts'

// `pnpm run docs` in a checkout of the working tree that has no git remote at all (a fork cloned
// from a tarball, a CI checkout without `origin`): it builds, every source link points at the
// repository the packages' package.json name, the rendered spec shows every digit of the 64-bit
// example ids, and the index page is styled and links back to the demo.

const checkout = mkdtempSync(join(tmpdir(), 'service-sdk-docs-checkout-'))
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: checkout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
let build = { code: 0, output: '' }

beforeAll(() => {
  // The working tree as git sees it (tracked and new files, not the ignored ones), committed in a
  // repository of its own with no remote.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file && existsSync(join(root, file)))
  for (const file of files) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true })
    copyFileSync(join(root, file), join(checkout, file))
  }
  run('git', ['init', '-q'])
  run('git', ['add', '-A'])
  run('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'checkout'])
  run('pnpm', ['install', '--offline', '--frozen-lockfile'])
  try {
    build = { code: 0, output: run('pnpm', ['run', 'docs']) }
  } catch (error) {
    const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string }
    build = { code: status, output: `${stdout}${stderr}` }
  }
}, 300_000)

afterAll(() => rmSync(checkout, { recursive: true, force: true }))

const site = (file: string) => readFileSync(join(checkout, 'docs', 'site', file), 'utf8')

describe('pnpm run docs in a checkout without a git remote', () => {
  test('builds, without a warning', () => {
    expect(run('git', ['remote'])).toBe('')
    expect(build.code, build.output).toBe(0)
    expect(build.output).not.toMatch(/warning/i)
  })

  test("source links point at the packages' repository, at the commit documented", () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', 'open', 'package.json'), 'utf8'))
    const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')
    const head = run('git', ['rev-parse', 'HEAD']).trim()
    const page = site('api/functions/_service-sdk_open.index.createOpenClient.html')
    expect(page).toContain(`href="${repository}/blob/${head}/packages/open/src/client.ts#L`)
  })

  test('the rendered spec shows every digit of the 19-digit example ids', () => {
    const spec = site('spec/index.html')
    expect(readFileSync(join(checkout, 'spec', 'openapi.yaml'), 'utf8')).toContain('id: 1673603133161799680')
    expect(spec.match(/1673603133161799680/g)?.length ?? 0).toBeGreaterThan(10)
    // The rounded form appears only in the note that explains it.
    expect(spec.match(/1673603133161799700/g)?.length).toBe(2)
    expect(spec).toContain('every digit shows')
  })

  test('the two createOpenClient signatures are described apart', () => {
    const page = site('api/functions/_service-sdk_open.index.createOpenClient.html')
    expect(page).toContain('from a server or script')
    expect(page).toContain("The open client of a browser page, through the application's upload proxy")
  })

  test('the index page is styled and links back to the demo', () => {
    const index = site('index.html')
    expect(index).toMatch(/<style>[\s\S]+<\/style>/)
    expect(index).toContain('<meta name="viewport"')
    expect(index).toContain('<a href="/" id="back">')
    expect(index).toContain('href="api/index.html"')
    expect(index).toContain('href="spec/index.html"')
  })
})
