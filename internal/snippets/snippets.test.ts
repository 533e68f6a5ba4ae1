import { execFile } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isBrowser, type Snippet } from './extract.ts'
import { fileOf, nameOf, readmes, snippets } from './readmes.ts'

// Every ```ts / ```tsx / ```js block of the READMEs, as a user would copy it: written to files
// inside the workspace (so `@service-sdk/*` resolve through the workspace links, to the BUILT
// packages: no source condition here) and type-checked with tsc in strict mode with
// `exactOptionalPropertyTypes` (a `js` block with `checkJs`). fresh-project.test.ts runs them.

const exec = promisify(execFile)
const here = import.meta.dirname
const out = join(here, '.out')
const runnable = snippets.filter((s) => !s.typecheckOnly)

/** Lower bounds, so that an extractor that finds nothing (or loses a README) cannot pass. */
const MIN_BLOCKS: Record<string, number> = {
  'packages/core/README.md': 3,
  'packages/open/README.md': 8,
  'packages/react/README.md': 4,
  'packages/selector/README.md': 6,
  'packages/simulator/README.md': 8,
  'packages/team/README.md': 3,
  'packages/webhooks/README.md': 16,
}

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
    exactOptionalPropertyTypes: true,
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

test('every SERVICE_* variable a snippet reads is one `service-sdk sim --env` gives', async () => {
  const read = new Set(snippets.flatMap((s) => s.code.match(/\bSERVICE_\w+/g) ?? []))
  expect(read.size).toBeGreaterThan(0)
  const sim = await startSimulator()
  try {
    // The simulator's variables, and the webhook receiver's token (the CLI's `sim --env` adds it).
    const given = [...Object.keys(simulatorEnv(sim)), 'SERVICE_WEBHOOK_TOKEN']
    expect(given).toEqual(expect.arrayContaining([...read]))
  } finally {
    await sim.stop()
  }
})

test('tsc reports nothing outside the snippets themselves', () => {
  expect(diagnostics.get('(tsc)') ?? []).toEqual([])
})

describe.each(snippets.map((s) => [nameOf(s), s] as const))('%s', (_, snippet) => {
  test('type-checks (strict, exactOptionalPropertyTypes, against the built packages)', () => {
    expect(diagnostics.get(fileOf(snippet)) ?? []).toEqual([])
  })
})
