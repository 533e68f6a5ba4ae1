import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { brotliCompressSync, constants } from 'node:zlib'
import { beforeAll, expect, test } from 'vitest'
import { dist, requireBuild } from './harness.ts'

// The selector's size budget (3 KB), measured on the files we ship (brotli, maximum quality, 1 KB = 1024 bytes).
const BUDGET = { 'index.js': 3 * 1024, 'service-selector.iife.js': 4 * 1024 }

const read = (file: string) => readFileSync(join(dist, file))
const brotli = (bytes: Buffer) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length

beforeAll(requireBuild)

test.for(Object.entries(BUDGET))('%s stays within %i bytes brotli', ([file, budget]) => {
  const size = brotli(read(file))
  console.info(`${file}: ${size} bytes brotli (budget ${budget})`)
  expect(size, `${file} is ${size} bytes brotli, over its budget of ${budget}`).toBeLessThanOrEqual(budget)
})

test('the IIFE defines window.ServiceSelector and nothing else, without touching the DOM', () => {
  const sandbox: Record<string, unknown> = {}
  runInNewContext(read('service-selector.iife.js').toString(), sandbox)
  expect(Object.keys(sandbox)).toEqual(['ServiceSelector'])
  const api = sandbox.ServiceSelector as Record<string, unknown>
  expect(Object.keys(api).sort()).toEqual([
    'SANDBOX',
    'SelectorError',
    'createSelector',
    'orgIdForSave',
    'pickFolder',
    'uploadWithSelector',
  ])
})

test('no build ever posts to the wildcard origin', () => {
  for (const file of ['index.js', 'index.cjs', 'service-selector.iife.js']) {
    const code = read(file).toString()
    const calls = code.match(/postMessage\([^)]*\)/g) ?? []
    expect(calls.length, file).toBe(1)
    for (const call of calls) expect(call, file).not.toMatch(/['"`]\*['"`]/)
  }
})
