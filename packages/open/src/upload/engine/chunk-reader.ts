import { ServiceValidationError } from '@service-sdk/core'

/** Bytes kept from the start of a stream, to read image dimensions from. */
export const HEAD_BYTES = 64 * 1024

export interface ChunkReader {
  read(max: number): Promise<Uint8Array[]>
  ended(): Promise<boolean>
  head(): Uint8Array
  cancel(): void
}

/**
 * Reads a stream part by part: exactly `max` bytes per read (fewer only at the end), as views of
 * the chunks the stream produced (no copy), pulling only when asked, so a slow upload holds the
 * stream back instead of buffering it.
 */
export function createChunkReader(iterable: AsyncIterable<unknown>): ChunkReader {
  const iterator = iterable[Symbol.asyncIterator]()
  let pending: Uint8Array | undefined
  let finished = false
  let head = new Uint8Array(0)

  const pull = async (): Promise<Uint8Array | undefined> => {
    if (pending) {
      const chunk = pending
      pending = undefined
      return chunk
    }
    while (!finished) {
      const next = await iterator.next()
      if (next.done) {
        finished = true
        break
      }
      const chunk = bytesOf(next.value)
      if (chunk.byteLength === 0) continue
      if (head.byteLength < HEAD_BYTES) {
        const grown = new Uint8Array(Math.min(HEAD_BYTES, head.byteLength + chunk.byteLength))
        grown.set(head)
        grown.set(chunk.subarray(0, grown.byteLength - head.byteLength), head.byteLength)
        head = grown
      }
      return chunk
    }
    return undefined
  }

  return {
    async read(max) {
      const chunks: Uint8Array[] = []
      let size = 0
      while (size < max) {
        const chunk = await pull()
        if (!chunk) break
        const take = Math.min(chunk.byteLength, max - size)
        chunks.push(take === chunk.byteLength ? chunk : chunk.subarray(0, take))
        if (take < chunk.byteLength) pending = chunk.subarray(take)
        size += take
      }
      return chunks
    },
    async ended() {
      const chunk = await pull()
      if (!chunk) return true
      pending = chunk
      return false
    },
    head: () => head,
    cancel() {
      finished = true
      void Promise.resolve(iterator.return?.()).catch(() => {})
    },
  }
}

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  throw new ServiceValidationError('upload source', [
    {
      path: 'source',
      message: `the stream produced a ${typeof value === 'string' ? 'string' : typeof value} chunk: it must produce bytes (do not set an encoding on it)`,
    },
  ])
}
