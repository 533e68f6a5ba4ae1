import { type Stats, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { ServiceValidationError, UploadError } from '@service-sdk/core'
import { crc64, createCrc64 } from '../crc64/crc64.ts'
import { createChunkReader } from '../engine/chunk-reader.ts'
import { sourceError } from '../engine/source-error.ts'
import type { OssBody } from '../oss/types.ts'
import {
  blobSource,
  type PreparedSource,
  type RandomAccessSource,
  type SequentialSource,
} from '../platform/platform.ts'
import { bytesBody } from './bytes-body.ts'
import { fileRange } from './file-range.ts'

const ACCEPTED =
  'a file path, a Buffer or Uint8Array, an ArrayBuffer, a Blob or File, or a readable stream (Node Readable, web ReadableStream, async iterable of bytes)'

export function refuseNodeSource(source: unknown): string | undefined {
  if (typeof source === 'string') return source === '' ? 'must not be an empty path' : undefined
  if (source instanceof Uint8Array || source instanceof ArrayBuffer || source instanceof Blob)
    return undefined
  if (isAsyncIterable(source)) return undefined
  return `must be ${ACCEPTED}`
}

export async function prepareNodeSource(source: unknown): Promise<PreparedSource> {
  if (typeof source === 'string') return fileSource(source)
  if (source instanceof ArrayBuffer) return bytesSource(new Uint8Array(source))
  if (source instanceof Uint8Array) return bytesSource(source)
  if (source instanceof Blob) return streamedBlob(source)
  if (isAsyncIterable(source)) return streamSource(source)
  throw new ServiceValidationError('upload source', [{ path: 'source', message: `must be ${ACCEPTED}` }])
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  )
}

/**
 * The file's size and time from one synchronous `stat`: a single metadata call of a few µs, where
 * the same call through libuv's thread pool cost ~50 µs of CPU in wake-ups and callbacks, about a
 * tenth of the uploader's CPU per 64 KiB file of `uploadMany` (bench/upload/ab.ts). Small files are
 * read synchronously too (`node/file-range.ts` `sendSmallRange`).
 */
function fileSource(path: string): RandomAccessSource {
  const absolute = resolve(path)
  let stats: Stats
  try {
    stats = statSync(absolute)
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    throw new ServiceValidationError('upload source', [
      { path: 'source', message: `cannot read ${absolute} (${code ?? message})` },
    ])
  }
  if (!stats.isFile()) {
    throw new ServiceValidationError('upload source', [
      { path: 'source', message: `${absolute} is not a file` },
    ])
  }
  return {
    kind: 'random',
    size: stats.size,
    fileName: basename(absolute),
    contentType: undefined,
    fingerprint: { name: absolute, size: stats.size, lastModified: stats.mtimeMs },
    body(start, end) {
      const range = fileRange(absolute, start, end, (error) => {
        body.failure = error
      })
      const body: OssBody = { size: end - start, stream: range, checksum: () => range.crc.value() }
      return body
    },
    head: (bytes) => fileHead(absolute, Math.min(bytes, stats.size)),
    checksum: (start, end) => fileChecksum(absolute, start, end),
  }
}

/** The first bytes of a file (to read an image's size); a failure (the file went) is the source's. */
async function fileHead(path: string, bytes: number): Promise<Uint8Array> {
  try {
    const handle = await open(path, 'r')
    try {
      const buffer = Buffer.alloc(bytes)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      return buffer.subarray(0, bytesRead)
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw sourceError(error)
  }
}

/** The CRC-64 of bytes [start, end) of a file, read 1 MiB at a time; a failure is the source's. */
async function fileChecksum(path: string, start: number, end: number): Promise<bigint> {
  try {
    return await readChecksum(path, start, end)
  } catch (error) {
    throw UploadError.isInstance(error) ? error : sourceError(error)
  }
}

/** The file is shorter than when it was opened: it changed while it was read. */
function fileChanged(path: string, end: number): UploadError {
  return new UploadError({
    code: 'source_error',
    message: `Reading the source failed (${path} ended before byte ${end}: it changed): nothing was saved. Check the file and upload it again.`,
  })
}

async function readChecksum(path: string, start: number, end: number): Promise<bigint> {
  const handle = await open(path, 'r')
  try {
    const crc = createCrc64()
    const buffer = Buffer.allocUnsafe(Math.min(1024 * 1024, Math.max(1, end - start)))
    for (let at = start; at < end; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - at), at)
      if (bytesRead === 0) throw fileChanged(path, end)
      crc.update(buffer.subarray(0, bytesRead))
      at += bytesRead
    }
    return crc.value()
  } finally {
    await handle.close()
  }
}

function bytesSource(bytes: Uint8Array): RandomAccessSource {
  return {
    kind: 'random',
    size: bytes.byteLength,
    fileName: undefined,
    contentType: undefined,
    fingerprint: undefined,
    body: (start, end) => ({
      size: end - start,
      stream: bytesBody([bytes.subarray(start, end)]),
      checksum: () => crc64(bytes.subarray(start, end)),
    }),
    head: async (n) => bytes.subarray(0, n),
    checksum: async (start, end) => crc64(bytes.subarray(start, end)),
  }
}

/** Parts are streamed from Blob slices, so a large Blob is never copied into one Buffer. */
function streamedBlob(blob: Blob): RandomAccessSource {
  return blobSource(blob, (start, end) => {
    const crc = createCrc64()
    const body: OssBody = { size: end - start, checksum: () => crc.value() }
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        crc.update(chunk)
        controller.enqueue(chunk)
      },
    })
    const stream = Readable.fromWeb(
      blob.slice(start, end).stream().pipeThrough(tap) as import('node:stream/web').ReadableStream,
    )
    stream.on('error', (error) => {
      body.failure = error
    })
    body.stream = stream
    return body
  })
}

function streamSource(stream: AsyncIterable<unknown>): SequentialSource {
  const reader = createChunkReader(stream)
  const path = (stream as { path?: unknown }).path
  return {
    kind: 'sequential',
    size: undefined,
    fileName: typeof path === 'string' ? basename(path) : undefined,
    contentType: undefined,
    fingerprint: undefined,
    read: (max) => reader.read(max),
    ended: () => reader.ended(),
    head: () => reader.head(),
    body: (chunks, size) => ({ size, stream: bytesBody(chunks), checksum: () => crc64(...chunks) }),
    cancel: () => reader.cancel(),
  }
}
