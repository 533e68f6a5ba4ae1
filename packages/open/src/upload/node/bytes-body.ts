import type { ClientRequest } from 'node:http'

const BYTES = Symbol.for('@service-sdk/open/bytes-body')

/**
 * A body already in memory (a Buffer source's slice, a stream's part): written as it is, without
 * a Readable and `stream.pipeline` around it (which cost more CPU per request than the write).
 */
export interface BytesBody {
  readonly [BYTES]: true
  readonly chunks: readonly Uint8Array[]
}

/** `bytes` as chunks of at most `size`, so that progress moves while a large part goes out. */
export function bytesBody(chunks: readonly Uint8Array[], size = 256 * 1024): BytesBody {
  const cut: Uint8Array[] = []
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.byteLength; at += size) cut.push(chunk.subarray(at, at + size))
  }
  return { [BYTES]: true, chunks: cut }
}

export function isBytesBody(value: unknown): value is BytesBody {
  return typeof value === 'object' && value !== null && (value as Partial<BytesBody>)[BYTES] === true
}

/** Writes every chunk and ends the request; bytes are counted as the socket takes them. */
export function sendBytes(request: ClientRequest, body: BytesBody, onBytes: (bytes: number) => void): void {
  for (const chunk of body.chunks) request.write(chunk, () => onBytes(chunk.byteLength))
  request.end()
}
