import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// sqliteStore in a process of its own: its worker thread (src/stores/sqlite/sqlite-thread.ts, loaded by
// path) starts under the process's Node options and lets the process exit once nothing is awaited.

const dir = mkdtempSync(join(tmpdir(), 'webhooks-sqlite-process-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const file = () => join(dir, `store-${++n}.db`)

describe('sqliteStore in its own process', () => {
  it('lets the process exit while idle (its worker thread holds the event loop only while awaited)', () => {
    const module = join(import.meta.dirname, '../src/stores/sqlite/sqlite.ts')
    const script = `import { sqliteStore } from ${JSON.stringify(module)}
      const store = sqliteStore(${JSON.stringify(file())})
      console.log(await store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 }))`
    const run = spawnSync(
      process.execPath,
      ['--conditions=@service-sdk/source', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 20_000 },
    )
    expect(run.stdout.trim()).toBe('inserted')
    expect(run.signal).toBeNull()
    expect(run.status).toBe(0)
  })

  // The built package: the thread is its own file (dist/stores/sqlite-thread.mjs), found from
  // the chunk that holds the store, in both module formats.
  it.each([
    ['ESM', 'index.js', (dist: string) => `const { sqliteStore } = await import(${JSON.stringify(dist)})`],
    ['CommonJS', 'index.cjs', (dist: string) => `const { sqliteStore } = require(${JSON.stringify(dist)})`],
  ])('runs its thread from the built package (%s)', (_format, entry, load) => {
    const dist = join(import.meta.dirname, '../dist', entry)
    if (!existsSync(dist))
      throw new Error(`${dist} is missing: build the webhooks package first (pnpm build)`)
    const script = `${load(dist)}
      const store = sqliteStore(${JSON.stringify(file())})
      store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 })
        .then(async (outcome) => { console.log(outcome, (await store.get('k')).status); await store.close() })`
    const type = entry.endsWith('.cjs') ? 'commonjs' : 'module'
    const run = spawnSync(process.execPath, [`--input-type=${type}`, '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(run.stderr).toBe('')
    expect(run.stdout.trim()).toBe('inserted pending')
    expect(run.status).toBe(0)
  })

  // What bundlers and file tracers read (Next.js's Turbopack): the thread named by a literal URL
  // where the thread starts, no .ts source named anywhere, and a thread file that imports only
  // node: modules, so that a copy of it runs on its own.
  it.each(['index.js', 'index.cjs'])('names its thread for bundlers (%s)', (entry) => {
    const code = readFileSync(join(import.meta.dirname, '../dist', entry), 'utf8')
    expect(code).toMatch(/new (node_worker_threads\.)?Worker\(new URL\("\.\/stores\/sqlite-thread\.mjs", /)
    expect(code).not.toMatch(/new (node_worker_threads\.)?Worker\((?!new URL\()/)
    expect(code).not.toMatch(/["'][^"'\s]*\.ts["']/)
    const thread = readFileSync(join(import.meta.dirname, '../dist/stores/sqlite-thread.mjs'), 'utf8')
    const imports = [...thread.matchAll(/^import .* from "([^"]+)"/gm)].map((m) => m[1])
    expect(imports.filter((specifier) => !specifier?.startsWith('node:'))).toEqual([])
  })
})
