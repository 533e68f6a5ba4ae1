import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { generateWebhookToken } from '@service-sdk/webhooks'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { extractSnippets, isBrowser, type Snippet } from './extract.ts'

// Every ```ts / ```tsx / ```js block of the READMEs, as a user would copy it: written to files
// inside the workspace (so `@service-sdk/*` resolve through the workspace links, to the BUILT
// packages: no source condition here), type-checked with tsc in strict mode, and, unless marked
// `<!-- snippet: typecheck-only (reason) -->`, run with Node (which strips the types) against a
// fresh simulator whose URLs and credentials are in the SERVICE_* variables.

const exec = promisify(execFile)
const here = import.meta.dirname
const root = join(here, '../..')
const out = join(here, '.out')
const RUN_TIMEOUT_MS = 60_000

const readmes = [
  'README.md',
  ...readdirSync(join(root, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((p) => readdirSync(join(root, p, '..')).includes('README.md')),
]
const snippets = readmes.flatMap((readme) => extractSnippets(join(root, readme), readme))
const fileOf = (s: Snippet) =>
  `${s.readme === 'README.md' ? 'root' : s.readme.split('/')[1]}-L${s.line}.${s.lang === 'tsx' ? 'tsx' : s.lang === 'js' ? 'mjs' : 'ts'}`
const nameOf = (s: Snippet) => `${s.readme}:${s.line}`
const runnable = snippets.filter((s) => !s.typecheckOnly)

/** Lower bounds, so that an extractor that finds nothing (or loses a README) cannot pass. */
const MIN_BLOCKS: Record<string, number> = {
  'packages/core/README.md': 2,
  'packages/open/README.md': 8,
  'packages/react/README.md': 4,
  'packages/selector/README.md': 6,
  'packages/simulator/README.md': 8,
  'packages/team/README.md': 3,
  'packages/webhooks/README.md': 16,
}

/** Files the snippets upload, created in each run's working directory. */
const FIXTURES = ['brochure.pdf', 'clips/launch video.mp4', 'big.mov', 'cover.png', 'intro.mp4']

const tsconfig = (browser: boolean, files: string[]) => ({
  compilerOptions: {
    target: 'ES2023',
    lib: browser ? ['ES2024', 'DOM', 'DOM.Iterable'] : ['ES2024'],
    types: browser ? [] : ['node'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    moduleDetection: 'force',
    jsx: 'react-jsx',
    strict: true,
    verbatimModuleSyntax: true,
    erasableSyntaxOnly: true,
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    noEmit: true,
  },
  files,
})

const diagnostics = new Map<string, string[]>()

/** Runs tsc on one program; its errors, grouped by snippet file. */
async function typecheck(name: string, group: Snippet[]) {
  if (group.length === 0) return
  writeFileSync(join(out, name), JSON.stringify(tsconfig(name.includes('browser'), group.map(fileOf))))
  const tsc = join(here, 'node_modules/typescript/bin/tsc')
  const result = await exec(process.execPath, [tsc, '-p', join(out, name), '--pretty', 'false'], {
    cwd: out,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }))
  let current = ''
  for (const line of result.stdout.split('\n')) {
    const file = /^([\w.-]+)\(\d+,\d+\): /.exec(line)?.[1]
    if (file) current = file
    else if (!line.startsWith(' ') && line.trim()) current = '(tsc)'
    if (line.trim()) diagnostics.set(current, [...(diagnostics.get(current) ?? []), line])
  }
}

beforeAll(async () => {
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out)
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n')
  for (const s of snippets) writeFileSync(join(out, fileOf(s)), s.code)
  await typecheck(
    'tsconfig.node.json',
    snippets.filter((s) => !isBrowser(s)),
  )
  await typecheck('tsconfig.browser.json', snippets.filter(isBrowser))
}, 300_000)

afterAll(() => {
  if (!process.env.KEEP_SNIPPETS) rmSync(out, { recursive: true, force: true })
})

test('the extractor finds the blocks of every README', () => {
  for (const [readme, min] of Object.entries(MIN_BLOCKS)) {
    expect(readmes, readme).toContain(readme)
    expect(snippets.filter((s) => s.readme === readme).length, readme).toBeGreaterThanOrEqual(min)
  }
  expect(runnable.length).toBeGreaterThanOrEqual(12)
})

test('every SERVICE_* variable a snippet reads is one the simulator gives', async () => {
  const read = new Set(snippets.flatMap((s) => s.code.match(/\bSERVICE_\w+/g) ?? []))
  expect(read.size).toBeGreaterThan(0)
  const sim = await startSimulator()
  try {
    expect(Object.keys(simulatorEnv(sim))).toEqual(expect.arrayContaining([...read]))
  } finally {
    await sim.stop()
  }
})

test('tsc reports nothing outside the snippets themselves', () => {
  expect(diagnostics.get('(tsc)') ?? []).toEqual([])
})

describe.each(snippets.map((s) => [nameOf(s), s] as const))('%s', (_, snippet) => {
  test('type-checks (strict, against the built packages)', () => {
    expect(diagnostics.get(fileOf(snippet)) ?? []).toEqual([])
  })
  test.skipIf(snippet.typecheckOnly !== undefined)('runs against the simulator', async () => {
    const sim = await startSimulator()
    const cwd = mkdtempSync(join(tmpdir(), 'service-sdk-snippet-'))
    try {
      for (const fixture of FIXTURES) {
        mkdirSync(join(cwd, fixture, '..'), { recursive: true })
        writeFileSync(join(cwd, fixture), `the bytes of ${fixture}\n`)
      }
      // The simulator's own SERVICE_* variables (as `service-sdk sim --env` prints them), and the
      // receiver's token, which is the integrator's secret, not the service's.
      const env = { PATH: process.env.PATH, ...simulatorEnv(sim), WEBHOOK_TOKEN: generateWebhookToken() }
      const run = await exec(process.execPath, [join(out, fileOf(snippet))], {
        cwd,
        env,
        timeout: RUN_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      }).then(
        () => ({ code: 0, output: '' }),
        (error: { code?: number; killed?: boolean; stdout?: string; stderr?: string }) => ({
          code: error.killed ? `killed after ${RUN_TIMEOUT_MS} ms` : error.code,
          output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
        }),
      )
      expect(run.code, run.output).toBe(0)
    } finally {
      await sim.stop()
      rmSync(cwd, { recursive: true, force: true })
    }
  })
})

test('the snippets run on a Node that strips types', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(23)
})
