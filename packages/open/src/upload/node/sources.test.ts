// A file source whose file changes after it was opened: every failure to read it is the upload's
// `source_error` (an UploadError), never an untyped Node or plain error.
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ServiceValidationError, UploadError } from '@service-sdk/core'
import { rejectionOf } from '@service-sdk/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RandomAccessSource } from '../platform/platform.ts'
import { prepareNodeSource } from './sources.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sources-test-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function fileSource(
  name: string,
  bytes: number,
): Promise<{ path: string; source: RandomAccessSource }> {
  const path = join(dir, name)
  await writeFile(path, Buffer.alloc(bytes, 7))
  const source = await prepareNodeSource(path)
  if (source.kind !== 'random') throw new TypeError('a file is a random-access source')
  return { path, source }
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, 'the read succeeded')

describe('a file source', () => {
  it('a file that shrank: source_error naming the byte it ended before, with no untyped error inside', async () => {
    const { path, source } = await fileSource('shrank.bin', 4096)
    await truncate(path, 1000)
    const error = await failure(source.checksum(0, 4096))
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'source_error', isRetryable: false })
    expect((error as UploadError).message).toContain('ended before byte 4096')
    expect((error as UploadError).cause).toBeUndefined()
  })

  it('a file that went before its first bytes were read: source_error, the Node error as its cause', async () => {
    const { path, source } = await fileSource('went.png', 64)
    await rm(path)
    const error = await failure(source.head(32))
    expect(UploadError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'source_error', cause: expect.objectContaining({ code: 'ENOENT' }) })
  })

  it('reads the first bytes and the checksum of an unchanged file', async () => {
    const { source } = await fileSource('same.bin', 100)
    expect(Buffer.from(await source.head(10))).toEqual(Buffer.alloc(10, 7))
    expect(typeof (await source.checksum(0, 100))).toBe('bigint')
  })

  // The size is read with a synchronous stat (fileSource): its failures still reject the
  // promise, as validation errors, instead of throwing out of prepareNodeSource.
  it('a path that does not exist: a rejected ServiceValidationError naming the path and ENOENT', async () => {
    const path = join(dir, 'missing.bin')
    const prepared = prepareNodeSource(path)
    const error = await rejectionOf(prepared, 'a missing file was prepared')
    expect(ServiceValidationError.isInstance(error)).toBe(true)
    expect((error as ServiceValidationError).issues).toEqual([
      { path: 'source', message: `cannot read ${path} (ENOENT)` },
    ])
  })

  it('a directory: a rejected ServiceValidationError, not a file', async () => {
    const error = await rejectionOf(prepareNodeSource(dir), 'a directory was prepared')
    expect(ServiceValidationError.isInstance(error)).toBe(true)
    expect((error as ServiceValidationError).issues).toEqual([
      { path: 'source', message: `${dir} is not a file` },
    ])
  })
})
