import { moduleExports } from '@service-sdk/testkit'
import { expect, test } from 'vitest'

// The root entry is what a reader of the docs scans for a name: the errors and their codes, the
// options and the types a caller of team, open or webhooks names. It stays small by design; the
// zod schemas are `@service-sdk/core/schemas`, the plumbing `@service-sdk/core/internal`.
const here = (file: string) => new URL(file, import.meta.url).pathname
const root = moduleExports(here('./index.ts'))

test('the root entry exports at most 100 names (values and types)', () => {
  expect(root.length).toBeGreaterThan(0)
  expect(root.length, root.join(' ')).toBeLessThanOrEqual(100)
})

// Public, and also in internal beside the span details the SDK's own packages take from there.
const SHARED = new Set(['Instrumentation'])

test('no name is both on the root and in /schemas or /internal', () => {
  const elsewhere = new Set([
    ...moduleExports(here('./schemas/index.ts')),
    ...moduleExports(here('./internal.ts')),
  ])
  expect(root.filter((name) => elsewhere.has(name) && !SHARED.has(name))).toEqual([])
})
