import { createHash } from 'node:crypto'
import type { NewEvent, StoredEvent } from './store.ts'

/**
 * What the SQL stores' text columns can hold, and what they do with the rest: the same rule on
 * SQLite and PostgreSQL, so that both store every string a caller (or a JSON body) can give.
 *
 * A text column holds a string as given when it is well-formed UTF-16 (node:sqlite and pg send
 * text as UTF-8, where a lone surrogate becomes U+FFFD: two keys would become one), holds no NUL
 * (PostgreSQL's text refuses it) and, in an indexed column (key, order key, lease owner), takes at
 * most INDEXED_BYTES of UTF-8 (a PostgreSQL btree entry holds about 2,700 bytes). Otherwise the
 * column holds a digest of the string (`~sha256:<hex>`) and the string itself goes, exactly, into
 * the row's `originals` column as JSON (which escapes what text cannot hold), read back in its
 * place. A string that already looks like a digest is digested too, so a digest never stands
 * for two strings.
 */
export const INDEXED_BYTES = 1024

const DIGEST_PREFIX = '~sha256:'
const DIGEST = /^~sha256:[0-9a-f]{64}$/

/** An indexed column's form of `text` (a key, an order key, an owner): as given, or its digest. */
export function keyColumn(text: string): string {
  return holds(text, INDEXED_BYTES) ? text : digest(text)
}

/** An unindexed column's form of `text` (an event type, a body): as given, or its digest. */
export function textColumn(text: string): string {
  return holds(text, Number.POSITIVE_INFINITY) ? text : digest(text)
}

/**
 * A one-line error for `last_error`: not a key, so a NUL or a lone surrogate is shown as U+FFFD
 * rather than kept (the line is already cut to a length and redacted).
 */
export function lineColumn(line: string): string {
  return line.isWellFormed() && !line.includes('\0') ? line : line.toWellFormed().replaceAll('\0', '\uFFFD')
}

function holds(text: string, maxBytes: number): boolean {
  if (!text.isWellFormed() || text.includes('\0')) return false
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most strings need no count.
  if (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes) return false
  return !(text.startsWith(DIGEST_PREFIX) && DIGEST.test(text))
}

/**
 * SHA-256 of the string's generalized UTF-8 (lone surrogates as their own 3-byte forms, which no
 * well-formed string has): one byte string per UTF-16 string, and plain UTF-8 for a well-formed
 * one, so PostgreSQL computes the same digest of a stored text (see postgres-schema.ts).
 */
export function digest(text: string): string {
  const hash = createHash('sha256')
  hash.update(text.isWellFormed() ? Buffer.from(text) : generalizedUtf8(text))
  return `${DIGEST_PREFIX}${hash.digest('hex')}`
}

function generalizedUtf8(text: string): Buffer {
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    const next = text.charCodeAt(i + 1)
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
      i++
    }
    if (c < 0x80) bytes.push(c)
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63))
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
  }
  return Buffer.from(bytes)
}

/** The strings of an event as its row holds them. */
export interface EventColumns {
  key: string
  eventType: string
  body: string
  orderKey: string | null
  /** JSON of the strings held as digests (`{ key?, eventType?, body?, orderKey? }`), or null. */
  originals: string | null
}

/** The columns of a new event: its strings as given, or digests with `originals` (see above). */
export function eventColumns(event: NewEvent): EventColumns {
  const key = keyColumn(event.key)
  const eventType = textColumn(event.eventType)
  const body = textColumn(event.body)
  const orderKey = event.orderKey == null ? null : keyColumn(event.orderKey)
  if (
    key === event.key &&
    eventType === event.eventType &&
    body === event.body &&
    orderKey === (event.orderKey ?? null)
  )
    return { key, eventType, body, orderKey, originals: null }
  const originals: Partial<Record<'key' | 'eventType' | 'body' | 'orderKey', string>> = {}
  if (key !== event.key) originals.key = event.key
  if (eventType !== event.eventType) originals.eventType = event.eventType
  if (body !== event.body) originals.body = event.body
  if (orderKey !== (event.orderKey ?? null)) originals.orderKey = event.orderKey!
  return { key, eventType, body, orderKey, originals: JSON.stringify(originals) }
}

/** A stored event with the strings its row held as digests put back. */
export function withOriginals(event: StoredEvent, originals: string | null | undefined): StoredEvent {
  if (originals == null) return event
  const kept = JSON.parse(originals) as Partial<Record<'key' | 'eventType' | 'body' | 'orderKey', string>>
  if (kept.key !== undefined) event.key = kept.key
  if (kept.eventType !== undefined) event.eventType = kept.eventType
  if (kept.body !== undefined) event.body = kept.body
  if (kept.orderKey !== undefined) event.orderKey = kept.orderKey
  return event
}
