import { type FileHandle, open, rename, rm, writeFile } from 'node:fs/promises'
import { SimError } from '../../http/sim-error.ts'
import { type Digested, type DigestOptions, digestInto } from './digest.ts'
import type { ByteSource } from './store.ts'

/** Bodies reach the disk in writes of about this size (one writev per batch of socket chunks). */
const WRITE_BATCH = 1024 * 1024

/**
 * Streams a body into a new file, hashing as it goes. Chunks are gathered into ~1 MiB batches,
 * each written with one writev while the next batch is being read: one write call per MiB
 * instead of one per 64 KiB socket chunk, and never more than two batches held. The file is
 * removed when anything fails (client gone, disk full).
 */
export async function writeBodyToFile(
  path: string,
  body: ByteSource,
  options: DigestOptions = {},
): Promise<Digested> {
  const file = await open(path, 'wx')
  let batch: Uint8Array[] = []
  let batchBytes = 0
  let position = 0
  let writing: Promise<unknown> = Promise.resolve()
  const flush = async () => {
    await writing
    const chunks = batch
    writing = file.writev(chunks, position)
    // Awaited by the next flush or the end; until then a failure must not count as unhandled.
    writing.catch(() => undefined)
    position += batchBytes
    batch = []
    batchBytes = 0
  }
  try {
    const digest = await digestInto(
      body,
      (chunk) => {
        batch.push(chunk)
        batchBytes += chunk.byteLength
        if (batchBytes >= WRITE_BATCH) return flush()
      },
      options,
    )
    if (batchBytes > 0) await flush()
    await writing
    await file.close()
    return digest
  } catch (error) {
    await writing.catch(() => undefined)
    await file.close().catch(() => undefined)
    await rm(path, { force: true })
    throw error
  }
}

/** Replaces `target` in one step: readers see the old JSON or the new, never half of one. */
export async function writeJsonAtomic(target: string, scratch: string, value: unknown): Promise<void> {
  await writeFile(scratch, JSON.stringify(value))
  await rename(scratch, target)
}

export interface Segment {
  handle: FileHandle
  size: number
}

const READ_SIZE = 256 * 1024

/**
 * A Web stream over consecutive file segments, limited to [start, end] (inclusive). The files are
 * open before the stream is handed out, so deleting or replacing the object meanwhile cannot cut
 * it short. Handles close at the end, on error, and on cancel.
 */
export function segmentStream(
  segments: readonly Segment[],
  start: number,
  end: number,
): ReadableStream<Uint8Array> {
  let index = 0
  let segmentStart = 0 // absolute offset of segments[index]
  let position = start
  let closed = false
  const closeAll = async () => {
    if (closed) return
    closed = true
    await Promise.allSettled(segments.map((s) => s.handle.close()))
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (index < segments.length && position >= segmentStart + (segments[index] as Segment).size) {
          segmentStart += (segments[index] as Segment).size
          index++
        }
        const segment = segments[index]
        if (position > end || !segment) {
          await closeAll()
          controller.close()
          return
        }
        const length = Math.min(READ_SIZE, end + 1 - position, segmentStart + segment.size - position)
        const buffer = Buffer.allocUnsafe(length)
        const { bytesRead } = await segment.handle.read(buffer, 0, length, position - segmentStart)
        if (bytesRead === 0) throw new SimError('internal', 'Object data is shorter than its recorded size')
        position += bytesRead
        controller.enqueue(buffer.subarray(0, bytesRead))
      } catch (error) {
        await closeAll()
        controller.error(error)
      }
    },
    cancel: closeAll,
  })
}

export async function openSegments(paths: readonly { path: string; size: number }[]): Promise<Segment[]> {
  const opened: Segment[] = []
  try {
    for (const { path, size } of paths) opened.push({ handle: await open(path, 'r'), size })
    return opened
  } catch (error) {
    await Promise.allSettled(opened.map((s) => s.handle.close()))
    throw error
  }
}
