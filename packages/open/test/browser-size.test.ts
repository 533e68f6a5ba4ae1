import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { rolldown } from 'rolldown'
import { beforeAll, expect, test } from 'vitest'
import { ensureBuild } from './upload/build.ts'

// The size check of the browser build: a page importing only createOpenClient, bundled and
// minified as an application's bundler would (through the `browser` export condition). The
// upload engine is a chunk loaded on the first upload; zod and the client's schemas load only
// for calls that check input or answers, never for an upload through the proxy. What a real
// upload in Chromium loads is measured in proxy-browser.test.ts.

/**
 * Gzipped bytes of the entry chunk: 18.3 KB when this budget was set, the 30 KB target with room
 * to grow. It holds the client (API calls, the upload handles and their hand-written option
 * checks, progress), the proxied client (`createOpenClient({ proxyUrl })`) and core's transport
 * and errors; no zod (44.6 KB with the client's zod schemas, 34.7 KB with the upload option checks
 * in zod/mini).
 */
const ENTRY_BUDGET = 30 * 1024
/** The entry and every chunk an upload loads statically from it: the first upload's weight. */
const FIRST_UPLOAD_BUDGET = 40 * 1024

let chunks: Array<{ name: string; isEntry: boolean; gzip: number; code: string; imports: string[] }>

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
      ? [
          {
            name: o.fileName,
            isEntry: o.isEntry,
            gzip: gzipSync(o.code).length,
            code: o.code,
            imports: o.imports,
          },
        ]
      : [],
  )
}, 120_000)

/** The chunk named `name` and every chunk it imports statically. */
function withStaticImports(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen
  seen.add(name)
  for (const imported of chunks.find((c) => c.name === name)?.imports ?? []) withStaticImports(imported, seen)
  return seen
}

test('the entry stays within its budget, and so does the first upload: no ali-oss, no zod, the engine on first use', () => {
  const entry = chunks.find((c) => c.isEntry)!
  const engine = chunks.find((c) => c.code.includes('CompleteMultipartUpload'))!
  const firstUpload = [...withStaticImports(entry.name), ...withStaticImports(engine.name)]
  const total = chunks.filter((c) => firstUpload.includes(c.name)).reduce((sum, c) => sum + c.gzip, 0)
  console.info(
    `browser entry: ${(entry.gzip / 1024).toFixed(1)} KB gzip; first upload, everything loaded: ${(total / 1024).toFixed(1)} KB; lazy chunks: ${chunks
      .filter((c) => !c.isEntry)
      .map((c) => `${c.name} ${(c.gzip / 1024).toFixed(1)} KB`)
      .join(', ')}`,
  )
  expect(entry.gzip).toBeLessThanOrEqual(ENTRY_BUDGET)
  expect(total).toBeLessThanOrEqual(FIRST_UPLOAD_BUDGET)
  // Booleans, not the code: a failure message should not print 50 KB of JavaScript.
  // No chunk is ali-oss's browser build (its method names survive minifying).
  expect(
    chunks.some((c) => c.code.includes('initMultipartUpload') || c.name.startsWith('aliyun-oss-sdk')),
  ).toBe(false)
  // The engine (CRC-64 combine, multipart) is a chunk of its own.
  expect(engine.isEntry).toBe(false)
  expect(/CompleteMultipartUpload/.test(entry.code)).toBe(false)
  // Classic zod and zod's core (zod/mini's too) are not in the first upload's chunks at all: they
  // load on calls that check input or answers. zod names its classes in strings.
  const zod = /["'`](?:ZodObject|\$ZodType)["'`]/
  for (const c of chunks.filter((c) => firstUpload.includes(c.name)))
    expect(zod.test(c.code), c.name).toBe(false)
  expect(chunks.some((c) => !firstUpload.includes(c.name) && zod.test(c.code))).toBe(true)
})
