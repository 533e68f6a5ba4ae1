import { ServiceValidationError } from '@service-sdk/core'
import { crc64 } from '../crc64/crc64.ts'
import { createChunkReader } from '../engine/chunk-reader.ts'
import {
  blobChecksum,
  blobSource,
  type PreparedSource,
  type RandomAccessSource,
  type SequentialSource,
} from '../platform/platform.ts'

const ACCEPTED = 'a File or Blob, a Uint8Array or ArrayBuffer, or a ReadableStream of bytes'

export function refuseBrowserSource(source: unknown): string | undefined {
  if (typeof source === 'string') return `a file path can only be read in Node: pass ${ACCEPTED}`
  if (source instanceof Blob || source instanceof Uint8Array || source instanceof ArrayBuffer)
    return undefined
  if (isStream(source)) return undefined
  return `must be ${ACCEPTED}`
}

export async function prepareBrowserSource(source: unknown): Promise<PreparedSource> {
  if (source instanceof Blob) return sliced(source)
  if (source instanceof Uint8Array) return sliced(new Blob([source as Uint8Array<ArrayBuffer>]))
  if (source instanceof ArrayBuffer) return sliced(new Blob([source]))
  if (isStream(source)) return streamSource(source)
  throw new ServiceValidationError('upload source', [{ path: 'source', message: `must be ${ACCEPTED}` }])
}

function isStream(value: unknown): value is ReadableStream<Uint8Array> | AsyncIterable<unknown> {
  if (typeof value !== 'object' || value === null) return false
  return (
    typeof (value as ReadableStream).getReader === 'function' ||
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  )
}

/** Parts are Blob slices: the browser sends them from disk, nothing is read into memory. */
function sliced(blob: Blob): RandomAccessSource {
  // The CRC is read from the slice again once it is sent (the browser sends it from disk).
  return blobSource(blob, (start, end) => ({
    size: end - start,
    content: blob.slice(start, end),
    checksum: () => blobChecksum(blob, start, end),
  }))
}

function streamSource(stream: ReadableStream<Uint8Array> | AsyncIterable<unknown>): SequentialSource {
  const reader = createChunkReader(iterate(stream))
  return {
    kind: 'sequential',
    size: undefined,
    fileName: undefined,
    contentType: undefined,
    fingerprint: undefined,
    read: (max) => reader.read(max),
    ended: () => reader.ended(),
    head: () => reader.head(),
    body: (chunks, size) => ({
      size,
      content: new Blob(chunks as Uint8Array<ArrayBuffer>[]),
      checksum: () => crc64(...chunks),
    }),
    cancel: () => reader.cancel(),
  }
}

/** Older browsers' ReadableStreams are not async iterable. */
async function* iterate(
  stream: ReadableStream<Uint8Array> | AsyncIterable<unknown>,
): AsyncGenerator<unknown> {
  if (typeof (stream as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    yield* stream as AsyncIterable<unknown>
    return
  }
  const reader = (stream as ReadableStream<Uint8Array>).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}
