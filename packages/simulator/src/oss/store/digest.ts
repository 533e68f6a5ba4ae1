import { createHash } from 'node:crypto'
import { createCrc64 } from './crc64.ts'
import type { ByteSource } from './store.ts'

export interface Digested {
  size: number
  /** MD5 of the bytes as they arrived (what Content-MD5 and the ETag describe). */
  md5: Buffer
  /** CRC-64/ECMA-182 of the bytes as stored (decimal), as `x-oss-hash-crc64ecma` reports it. */
  crc64: string
}

export interface DigestOptions {
  /**
   * Simulated corruption: the byte at this offset is stored inverted. The MD5 still covers the
   * bytes as sent (the request's Content-MD5 check passes, as a fault after receipt would let
   * it), the CRC covers the bytes as stored: only a client's end-to-end CRC check can tell.
   */
  corruptAt?: number | undefined
}

/**
 * Drains `body` into `sink` chunk by chunk, hashing MD5 and CRC-64 and counting bytes as they
 * pass: the body is never held whole. The sink (a disk write) applies backpressure by returning
 * a promise. Both hashes run inline, on the event loop: moving MD5 to a worker thread was
 * measured with bench/simulator and did not pay for itself on a test tool.
 */
export async function digestInto(
  body: ByteSource,
  sink: (chunk: Uint8Array) => void | Promise<void>,
  options: DigestOptions = {},
): Promise<Digested> {
  const md5 = createHash('md5')
  const crc = createCrc64()
  let size = 0
  for await (const chunk of body) {
    const stored = corrupted(chunk, size, options.corruptAt)
    size += chunk.byteLength
    md5.update(chunk)
    crc.update(stored)
    const writing = sink(stored)
    if (writing) await writing
  }
  return { size, md5: md5.digest(), crc64: crc.digest() }
}

/** `chunk` (which starts at `offset` of the body), or a copy with the byte at `at` inverted. */
function corrupted(chunk: Uint8Array, offset: number, at: number | undefined): Uint8Array {
  if (at === undefined || at < offset || at >= offset + chunk.byteLength) return chunk
  const copy = Uint8Array.from(chunk)
  copy[at - offset] = (copy[at - offset] as number) ^ 0xff
  return copy
}
