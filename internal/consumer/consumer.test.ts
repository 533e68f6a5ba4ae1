import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'

// The root test command builds every package first (turbo run build); this project then uses
// the built output exactly as an integrator's project would.
const here = import.meta.dirname
const run = (file: string) =>
  JSON.parse(execFileSync(process.execPath, [file], { cwd: here, encoding: 'utf8' }))

describe('the published packages, from their built output', () => {
  test('ESM: every package loads and works', () => {
    expect(run('runtime.mjs')).toEqual({
      id: '1673603133161799680',
      notFound: true,
      canWrite: false,
      parse: 'function',
      selector: 'function',
    })
  })

  test('CommonJS: the clients load and work', () => {
    expect(run('runtime.cjs')).toEqual({
      id: '7',
      refused: true,
      orgId: null,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      parse: 'function',
    })
  })

  test('TypeScript (Node16 resolution, ESM and CJS) type-checks against the .d.ts files', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    expect(() =>
      execFileSync(process.execPath, [tsc, '-p', here], { cwd: here, encoding: 'utf8', stdio: 'pipe' }),
    ).not.toThrow()
  })
})
