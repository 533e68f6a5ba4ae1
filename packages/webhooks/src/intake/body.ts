import { WebhookError } from '../errors.ts'

/**
 * 25 MiB: the size webhook senders allow their payloads in practice (see the README's "What is
 * refused, and why"); a folder callback listing tens of thousands of assets fits.
 */
export const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024

/**
 * `application/json`, `application/<anything>+json`, with or without parameters. Only for a log
 * line: a body is read as JSON whatever its `Content-Type` says.
 */
export function isJsonContentType(value: string | null | undefined): boolean {
  if (!value) return false
  const semi = value.indexOf(';')
  const type = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

export function tooLarge(maxBytes: number): WebhookError {
  return new WebhookError(`The body exceeds ${maxBytes} bytes.`, { code: 'payload_too_large', status: 413 })
}

/** The sender went away (or the connection broke) before the body ended: nobody awaits the answer. */
export function aborted(cause: unknown): WebhookError {
  return new WebhookError('The sender closed the connection before the body ended.', {
    code: 'request_aborted',
    status: 400,
    cause,
  })
}

/**
 * Read a body exactly once, counting bytes as they arrive: Content-Length is only a hint (a
 * chunked body has none, and a sender can lie), so the cap is enforced on what is actually read,
 * and reading stops at the first chunk beyond it. A source that fails (the sender went away) is
 * `request_aborted`.
 */
export async function readCapped(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null,
  maxBytes: number,
  declaredLength?: string | null,
): Promise<Buffer> {
  const declared = declaredLength ? Number(declaredLength) : Number.NaN
  if (declared > maxBytes) throw tooLarge(maxBytes)
  if (source === null) return Buffer.alloc(0)
  try {
    if (isWholeBody(source)) return await source.readWhole(maxBytes)
    const body = new BodyBytes(maxBytes, declared)
    if (isWebStream(source)) {
      const reader = source.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          if (!body.add(value)) {
            // Tell the source to stop producing; whatever is left is not read.
            reader.cancel().catch(() => {})
            throw tooLarge(maxBytes)
          }
        }
      } finally {
        reader.releaseLock()
      }
    } else {
      for await (const chunk of source) {
        // Leaving the loop destroys a Node stream.
        if (!body.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) throw tooLarge(maxBytes)
      }
    }
    return body.whole()
  } catch (error) {
    throw WebhookError.isInstance(error) ? error : aborted(error)
  }
}

/**
 * A body's bytes as they arrive, under a cap. With a Content-Length (within the cap), the bytes go
 * straight into one buffer of that size: a body then takes its size in memory once, not twice
 * (the chunks, then their concatenation). Without one (chunked), the chunks are joined at the end.
 */
export class BodyBytes {
  readonly #maxBytes: number
  #buffer: Buffer | undefined
  readonly #chunks: Uint8Array[] = []
  #total = 0

  constructor(maxBytes: number, declared: number) {
    this.#maxBytes = maxBytes
    if (Number.isSafeInteger(declared) && declared > 0 && declared <= maxBytes)
      this.#buffer = Buffer.allocUnsafe(declared)
  }

  /** Adds a chunk; false (and nothing kept) once the body is past the cap. */
  add(chunk: Uint8Array): boolean {
    const total = this.#total + chunk.byteLength
    if (total > this.#maxBytes) return false
    if (this.#buffer && total <= this.#buffer.byteLength) this.#buffer.set(chunk, this.#total)
    else {
      // More than declared (a framework may have passed it on): keep the chunks instead.
      if (this.#buffer) this.#chunks.push(this.#buffer.subarray(0, this.#total))
      this.#buffer = undefined
      this.#chunks.push(chunk)
    }
    this.#total = total
    return true
  }

  whole(): Buffer {
    if (this.#buffer) return this.#buffer.subarray(0, this.#total)
    const chunks = this.#chunks
    if (chunks.length === 1) return Buffer.from(chunks[0]!.buffer, chunks[0]!.byteOffset, this.#total)
    return Buffer.concat(chunks, this.#total)
  }
}

/**
 * A body that can read itself whole in one call, under the same cap (the Node request of
 * adapters/node-body.ts): cheaper than an async iterator's round per chunk. Still iterable for others.
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
