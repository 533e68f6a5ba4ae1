import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { rolldown } from 'rolldown'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuild } from './upload/build.ts'

// The size check of the browser entry: a page importing only createOpenClient, bundled and
// minified as an application's bundler would (through the `browser` export condition). The
// upload engine and ali-oss must be chunks loaded on first use, not part of the entry.

/**
 * Gzipped bytes of the entry chunk: 18.3 KB when this budget was set, the 30 KB target with room
 * to grow. It holds the client (API calls, the upload handles and their hand-written option
 * checks, progress), the proxied client (`createOpenClient({ proxyUrl })`) and core's transport
 * and errors; no zod (44.6 KB with the client's zod schemas, 34.7 KB with the upload option checks
 * in zod/mini).
 */
const ENTRY_BUDGET = 30 * 1024

let chunks: Array<{ name: string; isEntry: boolean; gzip: number; code: string }>

beforeAll(async () => {
  ensureBuild()
  const build = await rolldown({
    input: join(import.meta.dirname, 'upload', 'size-page.ts'),
    platform: 'browser',
    logLevel: 'silent',
  })
  const { output } = await build.generate({ format: 'esm', minify: true })
  await build.close()
  chunks = output.flatMap((o) =>
    o.type === 'chunk'
      ? [{ name: o.fileName, isEntry: o.isEntry, gzip: gzipSync(o.code).length, code: o.code }]
      : [],
  )
}, 120_000)

test('the entry of a page importing createOpenClient stays within its budget; ali-oss and the engine load on first use', () => {
  const entry = chunks.find((c) => c.isEntry)
  const lazy = chunks.filter((c) => !c.isEntry)
  console.info(
    `browser entry: ${(entry!.gzip / 1024).toFixed(1)} KB gzip; on first upload: ${lazy
      .map((c) => `${c.name} ${(c.gzip / 1024).toFixed(1)} KB`)
      .join(', ')}`,
  )
  expect(entry!.gzip).toBeLessThanOrEqual(ENTRY_BUDGET)
  // Booleans, not the code: a failure message should not print 50 KB of JavaScript.
  // ali-oss's browser build (aliyun-oss-sdk.js) is a lazy chunk; its method names survive minifying.
  expect(entry!.code.includes('initMultipartUpload')).toBe(false)
  expect(
    lazy.some((c) => c.name.startsWith('aliyun-oss-sdk') && c.code.includes('initMultipartUpload')),
  ).toBe(true)
  // Classic zod and the client's schemas load on the first call, not with the page.
  // (zod names each schema class in a string: classic's `ZodObject`, zod/mini's `ZodMiniObject`).
  const classic = /["'`]ZodObject["'`]/
  expect(classic.test(entry!.code)).toBe(false)
  expect(lazy.some((c) => classic.test(c.code))).toBe(true)
  // Nor zod's core (zod/mini's too): the upload option checks are hand-written, and core's
  // parseInput calls a schema's own `validate`. zod's core names its classes in strings too.
  const zodCore = /["'`]\$ZodType["'`]/
  expect(zodCore.test(entry!.code)).toBe(false)
  expect(lazy.some((c) => zodCore.test(c.code))).toBe(true)
  // The engine (CRC-64 combine, multipart) is a chunk of its own too.
  expect(lazy.some((c) => c.code.includes('CompleteMultipartUpload'))).toBe(true)
  expect(/CompleteMultipartUpload/.test(entry!.code)).toBe(false)
})
