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
  return `sha256:${createHash('sha256').update(canonicalJson(body)).digest('hex')}`
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort()
    const parts: string[] = []
    for (const k of keys) {
      const v = (value as Record<string, unknown>)[k]
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${canonicalJson(v)}`)
    }
    return `{${parts.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
