import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dist, requireBuild } from './harness.ts'

// Importing under Node or during SSR must not touch the DOM: every browser global is a trap here.
const GLOBALS = [
  'window',
  'document',
  'self',
  'HTMLElement',
  'HTMLIFrameElement',
  'addEventListener',
] as const
const touched: string[] = []

beforeAll(() => {
  requireBuild()
  for (const name of GLOBALS) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name)
        return undefined
      },
    })
  }
})
afterAll(() => {
  for (const name of GLOBALS) delete (globalThis as Record<string, unknown>)[name]
})

type Module = typeof import('../src/index.ts')

const loaders: [string, () => Promise<Module>][] = [
  ['the ESM build', () => import(`${pathToFileURL(join(dist, 'index.js')).href}?node-test`)],
  ['the CJS build', async () => createRequire(import.meta.url)(join(dist, 'index.cjs')) as Module],
  ['the source', () => import('../src/index.ts')],
]

describe.for(loaders)('%s under Node', ([, load]) => {
  test('imports without touching a browser global', async () => {
    touched.length = 0
    const sdk = await load()
    expect(Object.keys(sdk).sort()).toEqual([
      'SANDBOX',
      'SelectorError',
      'createSelector',
      'orgIdForSave',
      'pickFolder',
      'uploadWithSelector',
    ])
    expect(touched).toEqual([])
  })

  test('createSelector works (as in an SSR render); open() rejects with code unsupported', async () => {
    const sdk = await load()
    const selector = sdk.createSelector({ appUrl: 'https://app.example.com' })
    selector.on('success', () => {})
    await expect(selector.open()).rejects.toMatchObject({ name: 'SelectorError', code: 'unsupported' })
    selector.close()
    selector.destroy()
    await expect(selector.open()).rejects.toMatchObject({ code: 'destroyed' })
  })

  test('pickFolder and uploadWithSelector reject, never throw synchronously', async () => {
    const sdk = await load()
    await expect(sdk.pickFolder({ appUrl: 'https://app.example.com' })).rejects.toMatchObject({
      code: 'unsupported',
    })
    const bad = sdk.uploadWithSelector({ appUrl: 'https://app.example.com', files: [] })
    await expect(bad).rejects.toMatchObject({ code: 'validation_error' })
    expect(sdk.SelectorError.isInstance(await bad.catch((e: unknown) => e))).toBe(true)
  })
})
