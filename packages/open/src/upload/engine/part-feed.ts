import { UploadError } from '@service-sdk/core'
import { abortable } from '@service-sdk/core/internal'
import { MAX_PARTS } from '../oss/limits.ts'
import type { OssBody } from '../oss/types.ts'
import type { RandomAccessSource, SequentialSource } from '../platform/platform.ts'
import { readSource } from './source-error.ts'

/** One part to send: its number, size, and a fresh body for each attempt. */
export interface PartJob {
  number: number
  size: number
  body(): OssBody
}

/** Hands out parts to the workers; `next` resolves `undefined` when there are no more. */
export interface PartFeed {
  next(): Promise<PartJob | undefined>
  /** Bytes handed out so far (a stream's size once the feed is exhausted). */
  readonly bytes: number
}

/** Parts of a file, Buffer or Blob, skipping those already stored. */
export function randomAccessFeed(
  source: RandomAccessSource,
  partSize: number,
  stored: ReadonlySet<number>,
): PartFeed {
  const count = Math.max(1, Math.ceil(source.size / partSize))
  let number = 0
  let bytes = 0
  return {
    async next() {
      while (++number <= count && stored.has(number)) {}
      if (number > count) return undefined
      const start = (number - 1) * partSize
      const end = Math.min(source.size, start + partSize)
      bytes += end - start
      const n = number
      return { number: n, size: end - start, body: () => source.body(start, end) }
    },
    get bytes() {
      return bytes
    },
  }
}

/**
 * Parts of a stream, read one at a time (workers take turns), each held in memory until it is
 * stored: at most `parallel` parts plus the one being read.
 */
export function sequentialFeed(
  source: SequentialSource,
  partSize: number,
  first: Uint8Array[],
  signal: AbortSignal,
): PartFeed {
  let number = 0
  let bytes = 0
  let pending: Uint8Array[] | undefined = first
  let finished = false
  let turn: Promise<unknown> = Promise.resolve()
  const read = async (): Promise<PartJob | undefined> => {
    if (finished) return undefined
    const chunks = pending ?? (await abortable(readSource(source.read(partSize)), signal))
    pending = undefined
    const size = chunks.reduce((sum, c) => sum + c.byteLength, 0)
    if (size < partSize) finished = true
    if (size === 0) return undefined
    if (++number > MAX_PARTS) {
      throw new UploadError({
        code: 'too_many_parts',
        message: `The stream is longer than ${MAX_PARTS} parts of ${partSize} bytes: pass a larger partSize.`,
      })
    }
    bytes += size
    return { number, size, body: () => source.body(chunks, size) }
  }
  return {
    next() {
      const job = turn.then(read)
      turn = job.catch(() => {})
      return job
    },
    get bytes() {
      return bytes
    },
  }
}

/** A part size that keeps the object within OSS's 10,000 parts (whole MiB when grown). */
export function partSizeFor(size: number, wanted: number): number {
  if (Math.ceil(size / wanted) <= MAX_PARTS) return wanted
  const MiB = 1024 * 1024
  return Math.ceil(size / MAX_PARTS / MiB) * MiB
}
