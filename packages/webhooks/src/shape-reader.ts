import { checkId } from '@service-sdk/core/internal'

// Readers that give what core's tolerant zod schemas give (the same values, key order included)
// for the values those schemas accept, and MISMATCH for anything they are not sure of: the caller
// then asks zod, so a body the schemas refuse keeps zod's issues. Hand-written for speed: on the
// bench's MATERIAL_DELETED body, readWebhook took 8.4 µs with zod's safeParse and 2.0 µs with
// these (known-shapes.ts has the shapes; the differential test holds them to the schemas).

/** What a reader returns for a value it does not vouch for (zod decides then). */
export const MISMATCH: unique symbol = Symbol('mismatch')
export type Reader = (value: unknown) => unknown

/** A plain object as JSON.parse makes it (arrays, class instances and null-prototype objects are left to zod). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

export const string: Reader = (v) => (typeof v === 'string' ? v : MISMATCH)
export const number: Reader = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : MISMATCH)
export const boolean: Reader = (v) => (typeof v === 'boolean' ? v : MISMATCH)
export const unknown: Reader = (v) => v
/** `z.union([z.number(), z.string()])`: a field whose type the service's documentation does not show. */
export const code: Reader = (v) => (typeof v === 'string' ? v : number(v))
/** core's `eventTimeSchema`: a string, or a number turned into its string. */
export const eventTime: Reader = (v) =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : MISMATCH

/** core's `idSchema`: the canonical decimal string of an id. */
export const id: Reader = (v) => {
  if (typeof v === 'string' && isCanonicalShortId(v)) return v
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') return MISMATCH
  const checked = checkId(v)
  return 'id' in checked ? checked.id : MISMATCH
}

/** Digits without a leading zero, short enough (18) to be below 2^63: its own canonical form. */
function isCanonicalShortId(text: string): boolean {
  const n = text.length
  if (n === 0 || n > 18 || (n > 1 && text.charCodeAt(0) === 48)) return false
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/** `z.array(item)`: a new array of the items read. */
export function array(item: Reader): Reader {
  return (v) => {
    if (!Array.isArray(v)) return MISMATCH
    const out = new Array<unknown>(v.length)
    for (let i = 0; i < v.length; i++) {
      const read = item(v[i])
      if (read === MISMATCH) return MISMATCH
      out[i] = read
    }
    return out
  }
}

export function nullable(read: Reader): Reader {
  return (v) => (v === null ? null : read(v))
}

/** `z.record(z.string(), value)`: a new object, keys in their order. */
export function record(value: Reader): Reader {
  return (v) => {
    if (!isPlainRecord(v)) return MISMATCH
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(v)) {
      // A `__proto__` key needs proto-keys.ts; undefined is not JSON.
      if (key === '__proto__' || v[key] === undefined) return MISMATCH
      const read = value(v[key])
      if (read === MISMATCH) return MISMATCH
      out[key] = read
    }
    return out
  }
}

/** One field of a loose object: its reader, and whether it may be absent. */
export interface FieldReader {
  read: Reader
  optional: boolean
}

/**
 * `z.looseObject(shape)` (with `dropNull`: core's payloadObject, where a known field sent as null
 * is read as absent): the fields of the shape in its order, then the unknown fields as sent.
 */
export function looseObject(shape: Record<string, FieldReader>, dropNull = false): Reader {
  const fields = Object.entries(shape)
  return (v) => {
    if (!isPlainRecord(v)) return MISMATCH
    const out: Record<string, unknown> = {}
    for (const [key, { read, optional }] of fields) {
      const value = v[key]
      // Absent: skipped when optional (an own undefined is not JSON: zod decides).
      if (value === undefined) {
        if (optional && !Object.hasOwn(v, key)) continue
        return MISMATCH
      }
      if (dropNull && value === null) {
        if (optional) continue
        return MISMATCH
      }
      const result = read(value)
      if (result === MISMATCH) return MISMATCH
      out[key] = result
    }
    for (const key of Object.keys(v)) {
      if (Object.hasOwn(shape, key)) continue
      const value = v[key]
      if (key === '__proto__' || value === undefined) return MISMATCH
      out[key] = value
    }
    return out
  }
}

/** A field that must be present. */
export function required(read: Reader): FieldReader {
  return { read, optional: false }
}

/** `.exactOptional()`: absent stays absent. */
export function optional(read: Reader): FieldReader {
  return { read, optional: true }
}
