import { createMd5 } from './md5.ts'
import type { ByteSource } from './store.ts'

export interface Digested {
  size: number
  md5: Buffer
}

/**
 * Drains `body` into `sink` chunk by chunk, hashing MD5 and counting bytes as they pass: the
 * body is never held whole. The sink (a disk write) and the hash (maybe on a worker thread)
 * both apply backpressure by returning a promise.
 */
export async function digestInto(
  body: ByteSource,
  sink: (chunk: Uint8Array) => void | Promise<void>,
): Promise<Digested> {
  const md5 = createMd5()
  let size = 0
  try {
    for await (const chunk of body) {
      size += chunk.byteLength
      const hashing = md5.update(chunk)
      const writing = sink(chunk)
      if (hashing) await hashing
      if (writing) await writing
    }
    return { size, md5: await md5.digest() }
  } catch (error) {
    md5.dispose()
    throw error
  }
}
