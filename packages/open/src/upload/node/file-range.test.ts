import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { ClientRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { crc64 } from '../crc64/crc64.ts'
import { createBufferPool, fileRange, sendFileRange } from './file-range.ts'

const KiB = 1024
const MiB = 1024 * KiB

let dir: string | undefined
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

async function file(size: number): Promise<{ path: string; bytes: Buffer }> {
  dir = await mkdtemp(join(tmpdir(), 'file-range-'))
  const bytes = Buffer.alloc(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >>> 11)) & 0xff
  const path = join(dir, 'f.bin')
  await writeFile(path, bytes)
  return { path, bytes }
}

/** A request that keeps a copy of each write (the buffer is reused once the write's callback ran). */
function recorder() {
  const writes: Buffer[] = []
  /** The size of the read buffer each write is a piece of. */
  const readBuffers: number[] = []
  let ended = false
  const request = {
    write(chunk: Buffer, done: (error?: Error | null) => void) {
      writes.push(Buffer.from(chunk))
      readBuffers.push(chunk.buffer.byteLength)
      setImmediate(done)
      return true
    },
    end(chunk?: Buffer, done?: () => void) {
      if (chunk) {
        writes.push(Buffer.from(chunk))
        readBuffers.push(chunk.buffer.byteLength)
      }
      ended = true
      if (done) setImmediate(done)
    },
  }
  return { request: request as unknown as ClientRequest, writes, readBuffers, ended: () => ended }
}

describe('sendFileRange', () => {
  test('a part of a large file is read 1 MiB at a time and written and counted 256 KiB at a time, its bytes and CRC-64 exact', async () => {
    const { path, bytes } = await file(4 * MiB)
    const start = 100
    const end = start + 3 * MiB + 5
    const range = fileRange(path, start, end, () => {})
    const { request, writes, readBuffers, ended } = recorder()
    const counted: number[] = []
    await sendFileRange(request, range, createBufferPool(256 * KiB, MiB, 16 * MiB), (n) => {
      counted.push(n)
    })
    expect(new Set(readBuffers)).toEqual(new Set([MiB]))
    expect(writes.map((w) => w.length)).toEqual([...Array(12).fill(256 * KiB), 5])
    expect(counted).toEqual(writes.map((w) => w.length))
    expect(Buffer.concat(writes).equals(bytes.subarray(start, end))).toBe(true)
    expect(range.crc.value()).toBe(crc64(bytes.subarray(start, end)))
    expect(ended()).toBe(true)
  })

  test('a small file is read into small buffers, which go back to the pool', async () => {
    const { path, bytes } = await file(100 * KiB)
    const pool = createBufferPool(256 * KiB, MiB, 16 * MiB)
    const { request, writes } = recorder()
    await sendFileRange(
      request,
      fileRange(path, 0, bytes.length, () => {}),
      pool,
      () => {},
    )
    expect(writes.map((w) => w.length)).toEqual([100 * KiB])
    await new Promise(setImmediate) // the socket took the bytes
    expect(pool.take(100 * KiB).length).toBe(256 * KiB)
  })
})

describe('createBufferPool', () => {
  test('hands out the large size only for ranges longer than the small one, and keeps at most keepBytes per size', () => {
    const pool = createBufferPool(4, 16, 32)
    expect(pool.take(4).length).toBe(4)
    expect(pool.take(5).length).toBe(16)
    const large = [pool.take(100), pool.take(100), pool.take(100)]
    for (const buffer of large) pool.give(buffer)
    // Two of 16 bytes fit in 32: the third went to the collector.
    expect([pool.take(100), pool.take(100)]).toEqual([large[1], large[0]])
    expect(pool.take(100)).not.toBe(large[2])
  })
})
