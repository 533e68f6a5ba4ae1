import { WebhookError } from './errors.ts'

/** 1 MiB: a folder callback listing hundreds of assets fits many times over. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** `application/json`, `application/<anything>+json`, with or without parameters. */
export function isJsonContentType(value: string | null | undefined): boolean {
  if (!value) return false
  const semi = value.indexOf(';')
  const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

export function tooLarge(maxBytes: number): WebhookError {
  return new WebhookError(`The body exceeds ${maxBytes} bytes.`, { code: 'payload_too_large', status: 413 })
}

/**
 * Read a body exactly once, counting bytes as they arrive: Content-Length is only a hint (a
 * chunked body has none, and a sender can lie), so the cap is enforced on what is actually read,
 * and reading stops at the first chunk beyond it.
 */
export async function readCapped(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  declaredLength?: string | null,
): Promise<Buffer> {
  if (declaredLength) {
    const n = Number(declaredLength)
    if (Number.isFinite(n) && n > maxBytes) throw tooLarge(maxBytes)
  }
  if (source === null) return Buffer.alloc(0)
  if (isWholeBody(source)) return source.readWhole(maxBytes)
  const chunks: Uint8Array[] = []
  let total = 0
  if (isWebStream(source)) {
    const reader = source.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        total += value.byteLength
        if (total > maxBytes) {
          // Tell the source to stop producing; whatever is left is not read.
          reader.cancel().catch(() => {})
          throw tooLarge(maxBytes)
        }
        chunks.push(value)
      }
    } finally {
      reader.releaseLock()
    }
  } else {
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      total += bytes.byteLength
      if (total > maxBytes) throw tooLarge(maxBytes) // leaving the loop destroys a Node stream
      chunks.push(bytes)
    }
  }
  return chunks.length === 1
    ? Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, total)
    : Buffer.concat(chunks, total)
}

/**
 * A body that can read itself whole in one call, under the same cap (the Node request of
 * node-body.ts): cheaper than an async iterator's round per chunk. Still iterable for others.
 */
export interface WholeBody extends AsyncIterable<Uint8Array> {
  readWhole(maxBytes: number): Promise<Buffer>
}

function isWholeBody(source: object): source is WholeBody {
  return typeof (source as WholeBody).readWhole === 'function'
}

function isWebStream(source: object): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream).getReader === 'function'
}

/** A body given whole (a string or bytes), checked against the cap; bytes as a Buffer without copying. */
export function cappedWhole(body: string | Uint8Array, maxBytes: number): string | Buffer {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  if (size > maxBytes) throw tooLarge(maxBytes)
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
}
