import { createHash } from 'node:crypto'
import type { ByteSource } from './store.ts'

export interface Digested {
  size: number
  md5: Buffer
}

/**
 * Drains `body` into `sink` chunk by chunk, hashing MD5 and counting bytes as they pass: the
 * body is never held whole. A sink that returns a promise applies backpressure.
 */
export async function digestInto(
  body: ByteSource,
  sink: (chunk: Uint8Array) => void | Promise<void>,
): Promise<Digested> {
  const hash = createHash('md5')
  let size = 0
  for await (const chunk of body) {
    hash.update(chunk)
    size += chunk.byteLength
    const pending = sink(chunk)
    if (pending) await pending
  }
  return { size, md5: hash.digest() }
}
