import { createHash } from 'node:crypto'

/**
 * The de-duplication key of an event: its `eventId` when it has one (the asset events), else a
 * hash of its content (the folder callback has no id; see docs/service/webhooks.md). The hash is
 * over a canonical form (keys sorted, ids as parsed), so whitespace or key order in a re-delivery
 * do not make it a new event.
 */
export function dedupeKey(body: Record<string, unknown>): string {
  const id = body.eventId
  if (typeof id === 'string' && id !== '') return id
  // The lossless parser gives an integer beyond 2^53 as its digits (a string, above); a number
  // here is exact only when it is a safe integer.
  if (typeof id === 'number' && Number.isSafeInteger(id)) return String(id)
  return canonicalKey(body)
}

/** `sha256:<hex>` of the canonical form of a losslessly parsed body. */
export function canonicalKey(body: Record<string, unknown>): string {
  const out = new HashWriter()
  writeCanonical(body, out)
  return `sha256:${out.digest()}`
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  const pieces: string[] = []
  writeCanonical(value, { write: (piece) => pieces.push(piece) })
  return pieces.join('')
}

/**
 * Writes the canonical form piece by piece, so that hashing a large body never builds its whole
 * text (a 20 MiB folder callback built it, and the arrays of its parts, at about 110 MiB of heap
 * for a moment). The pieces are whole JSON tokens, so their UTF-8, one after another, is the
 * UTF-8 of the whole text: the same digest as before.
 */
function writeCanonical(value: unknown, out: { write(piece: string): unknown }): void {
  if (Array.isArray(value)) {
    out.write('[')
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.write(',')
      writeCanonical(value[i], out)
    }
    out.write(']')
  } else if (typeof value === 'object' && value !== null) {
    out.write('{')
    let first = true
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k]
      if (v === undefined) continue
      out.write(first ? `${JSON.stringify(k)}:` : `,${JSON.stringify(k)}:`)
      first = false
      writeCanonical(v, out)
    }
    out.write('}')
  } else out.write(JSON.stringify(value) ?? 'null')
}

/** SHA-256 of what is written, hashed 64 KiB at a time (one `update` per piece costs more). */
class HashWriter {
  readonly #hash = createHash('sha256')
  #pending = ''

  write(piece: string): void {
    this.#pending += piece
    if (this.#pending.length >= 65_536) {
      this.#hash.update(this.#pending)
      this.#pending = ''
    }
  }

  digest(): string {
    return this.#hash.update(this.#pending).digest('hex')
  }
}
