import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core'
import { chromiumOrSkip, installNodes, OLDEST_NODE } from '@service-sdk/testkit'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Packed, packAll } from './pack.ts'
import { serveStatic } from './static-server.ts'

// The published packages as an integrator gets them: packed tarballs (built first by the root
// test command), checked with publint and arethetypeswrong, installed with plain npm into a fresh
// project outside the workspace, then used from Node ESM, Node CommonJS, TypeScript under three
// module resolutions, and a Vite browser build, each making a real call against the simulator.
// next-app.test.ts builds a Next.js app from the webhooks tarball.

const here = import.meta.dirname
const work = mkdtempSync(join(tmpdir(), 'service-sdk-consumer-'))
const project = join(work, 'project')
let packed: Packed[] = []

/** Runs a command in the project; a failure carries the command's own output. */
function sh(command: string, args: string[], cwd = project): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, NO_COLOR: '1' },
    })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
}
const run = (file: string, node = process.execPath) => JSON.parse(sh(node, [file]))
let oldest = ''

beforeAll(() => {
  packed = packAll(join(work, 'packs'))
  cpSync(join(here, 'project'), project, { recursive: true })
  const catalogVersion = (name: string) =>
    JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version as string
  const manifest = {
    name: 'consumer',
    private: true,
    dependencies: Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`])),
    devDependencies: {
      typescript: catalogVersion('typescript'),
      vite: catalogVersion('vite'),
      '@types/node': catalogVersion('@types/node'),
    },
  }
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  // Plain npm, as a user would; the registry is the only network it needs.
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'])
  oldest = installNodes(join(work, 'runtimes'), { oldest: OLDEST_NODE }).oldest
}, 300_000)

// KEEP_CONSUMER=1 keeps the project for a look after a failure.
afterAll(() => {
  if (!process.env.KEEP_CONSUMER) rmSync(work, { recursive: true, force: true })
})

describe('each packed tarball', () => {
  test('every published package was packed, with its LICENSE and without source-only export conditions', () => {
    expect(packed.map((p) => p.name).sort()).toEqual([
      '@service-sdk/cli',
      '@service-sdk/core',
      '@service-sdk/open',
      '@service-sdk/react',
      '@service-sdk/selector',
      '@service-sdk/simulator',
      '@service-sdk/team',
      '@service-sdk/webhooks',
    ])
    for (const p of packed) {
      expect(p.files, p.name).toContain('package/LICENSE')
      const manifest = readFileSync(join(project, 'node_modules', p.name, 'package.json'), 'utf8')
      expect(manifest, p.name).not.toContain('@service-sdk/source')
      for (const field of ['repository', 'homepage', 'bugs', 'keywords'])
        expect(JSON.parse(manifest), `${p.name} ${field}`).toHaveProperty(field)
    }
  })

  test('publint: no errors, warnings or suggestions', async () => {
    const found: string[] = []
    for (const p of packed) {
      const bytes = readFileSync(p.tarball)
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
      const { messages, pkg } = await publint({ pack: { tarball }, strict: true })
      for (const m of messages) found.push(`${p.name}: ${m.type} ${formatMessage(m, pkg) ?? m.code}`)
    }
    expect(found).toEqual([])
  })

  test('arethetypeswrong: every entry resolves with types under node10, node16 (ESM and CJS) and bundler', async () => {
    const found: string[] = []
    // The command line ships a bin and no module entry: nothing to type.
    for (const p of packed.filter((p) => p.name !== '@service-sdk/cli')) {
      const result = await checkPackage(
        createPackageFromTarballData(new Uint8Array(readFileSync(p.tarball))),
        {
          // A classic <script>, not a module: its global is typed by a declaration file, checked below by tsc.
          excludeEntrypoints: p.name === '@service-sdk/selector' ? ['./iife'] : [],
        },
      )
      if (!result.types) found.push(`${p.name}: no types`)
      else for (const problem of result.problems) found.push(`${p.name}: ${JSON.stringify(problem)}`)
    }
    expect(found).toEqual([])
  })
})

describe('a fresh npm project with the tarballs installed', () => {
  // The workspace's Node 24, and the oldest Node every package's `engines` names.
  const nodes: Array<[string, () => string]> = [
    ['Node 24', () => process.execPath],
    [`Node ${OLDEST_NODE}`, () => oldest],
  ]

  test.each(nodes)('%s ESM: the packages load and make real calls against the simulator', (_, node) => {
    expect(run('runtime.mjs', node())).toEqual({
      members: true,
      notFound: true,
      spaces: true,
      parse: 'function',
      selector: 'function',
      sqlite: 'inserted pending',
    })
  })

  test.each(nodes)(
    '%s CommonJS: the packages load through require and make real calls against the simulator',
    (_, node) => {
      expect(run('runtime.cjs', node())).toEqual({
        members: true,
        bucket: 'string',
        refused: true,
        orgId: null,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        parse: 'function',
        sqlite: 'inserted pending',
      })
    },
  )

  test('the `service-sdk` command line runs from its installed bin (cli.test.ts runs it on each Node)', () => {
    expect(sh(join(project, 'node_modules', '.bin', 'service-sdk'), ['--help'])).toContain(
      'Usage: service-sdk',
    )
  })

  test.each(['node16', 'bundler', 'node10'])(
    'TypeScript, moduleResolution %s: every entry type-checks against the .d.ts files',
    (resolution) => {
      const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc')
      // Throws with tsc's diagnostics when any entry fails to resolve or type-check.
      expect(sh(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`])).toBe('')
    },
  )
})

const chromium = chromiumOrSkip()

describe.skipIf(!chromium.available)('a Vite browser build from the tarballs, in Chromium', () => {
  test('builds; the selector picks a folder in the simulator’s page (another origin)', async () => {
    sh(process.execPath, [
      join(project, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/vite.config.mjs',
    ])
    const bundle = readFileSync(join(project, 'web', 'dist', 'index.html'), 'utf8')
    expect(bundle).toContain('<script type="module"')
    const { startSimulator } = await import(
      join(project, 'node_modules', '@service-sdk', 'simulator', 'dist', 'index.js')
    )
    const sim = await startSimulator()
    // The page on `localhost`, the simulator on 127.0.0.1: two sites, as in production.
    const site = await serveStatic(join(project, 'web', 'dist'), 'localhost')
    const browser = await chromium.launch()
    try {
      const page = await browser.newPage()
      await page.goto(site.url)
      await page.waitForFunction(() => typeof window.pick === 'function')
      const picked = page.evaluate((appUrl: string) => window.pick(appUrl), sim.urls.app)
      const frame = await (await page.waitForSelector('iframe', { state: 'attached' })).contentFrame()
      if (!frame) throw new Error('the selector iframe has no frame')
      await frame.waitForSelector('[role="tree"]')
      await frame
        .getByRole('treeitem', { name: 'Acme Campaigns', exact: true })
        .locator(':scope > .row')
        .click()
      await frame.getByRole('button', { name: 'Confirm' }).click()
      expect(await picked).toEqual({ folderId: '1753946835010000001', orgId: '1001' })
      expect(await page.evaluate(() => typeof window.openClient)).toBe('object')
    } finally {
      await browser.close()
      await site.close()
      await sim.stop()
    }
  })
})

declare global {
  interface Window {
    pick(appUrl: string): Promise<unknown>
    openClient: unknown
  }
}
