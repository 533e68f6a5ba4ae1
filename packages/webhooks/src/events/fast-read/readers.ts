import { checkId } from '@service-sdk/core/internal'

// The parts compile.ts assembles readers from. A reader gives what core's tolerant zod schema
// gives (the same values, key order included) for the values that schema accepts, and MISMATCH
// for anything it is not sure of: the caller then asks zod, so a body the schema refuses keeps
// zod's issues. Written for speed: on the bench's MATERIAL_DELETED body, readWebhook takes 0.28x
// the CPU it takes with zod's safeParse (10.0 to 2.8 µs, both in one run).

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
/** core's `eventTimeSchema`: a string, or a number turned into its string. */
export const eventTime: Reader = (v) =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : MISMATCH

/** core's `idSchema`: the canonical decimal string of an id. */
export const id: Reader = (v) => {
  if (typeof v === 'string' && isCanonicalId(v)) return v
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') return MISMATCH
  const checked = checkId(v)
  return 'id' in checked ? checked.id : MISMATCH
}

const MAX_ID = '9223372036854775807'

/** Digits without a leading zero, at most 2^63 - 1: its own canonical form (checkId's BigInt not needed). */
function isCanonicalId(text: string): boolean {
  const n = text.length
  if (n === 0 || n > MAX_ID.length || (n > 1 && text.charCodeAt(0) === 48)) return false
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  // Digit strings of one length compare as their numbers do.
  return n < MAX_ID.length || text <= MAX_ID
}

/** `z.array(item)`: a new array of the items read. */
export function array(item: Reader): Reader {
  return (v) => {
    if (!Array.isArray(v)) return MISMATCH
    let out: unknown[] | undefined
    for (let i = 0; i < v.length; i++) {
      const read = item(v[i])
      if (read === MISMATCH) return MISMATCH
      if (read !== v[i]) out ??= v.slice(0, i)
      out?.push(read)
    }
    // zod's copy, or the array itself when every item reads as itself.
    return out ?? v
  }
}

/** `z.literal(...values)`. */
export function literal(values: readonly unknown[]): Reader {
  return (v) => (values.includes(v) ? v : MISMATCH)
}

/** A union of readers that decline exactly what their schema refuses: the first that reads it. */
export function firstOf(readers: readonly Reader[]): Reader {
  return (v) => {
    for (const read of readers) {
      const result = read(v)
      if (result !== MISMATCH) return result
    }
    return MISMATCH
  }
}

/** Declines everything: the part of a schema no reader is made for (zod reads it). */
export const decline: Reader = () => MISMATCH

export function nullable(read: Reader): Reader {
  return (v) => (v === null ? null : read(v))
}

/** `z.record(z.string(), value)`: a new object, keys in their order. */
export function record(value: Reader): Reader {
  return (v) => {
    if (!isPlainRecord(v)) return MISMATCH
    const keys = Object.keys(v)
    let out: Record<string, unknown> | undefined
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!
      // A `__proto__` key needs proto-keys.ts; undefined is not JSON.
      if (key === '__proto__' || v[key] === undefined) return MISMATCH
      const read = value(v[key])
      if (read === MISMATCH) return MISMATCH
      if (read !== v[key] && !out) {
        out = {}
        for (let j = 0; j < i; j++) out[keys[j]!] = v[keys[j]!]
      }
      if (out) out[key] = read
    }
    // zod's copy, or the object itself when every value reads as itself.
    return out ?? v
  }
}

/** One field of a loose object: its reader, and whether it may be absent. */
export interface FieldReader {
  read: Reader
  optional: boolean
}

const NONE: ReadonlySet<string> = new Set()

/**
 * `z.looseObject(shape)` (with `nullAsAbsent`: the fields a tolerant schema reads as absent when
 * sent as null): the fields of the shape in its order, then the unknown fields as sent. The
 * object itself when that is what it already is (as nearly every body is): zod's copy, less the
 * copying.
 */
export function looseObject(shape: Record<string, FieldReader>, nullAsAbsent = NONE): Reader {
  const names = Object.keys(shape)
  const fields = Object.values(shape)
  const dropsNull = names.map((name) => nullAsAbsent.has(name))
  const position = new Map(names.map((name, i) => [name, i]))
  return (v) => {
    if (!isPlainRecord(v)) return MISMATCH
    const keys = Object.keys(v)
    let same = inShapeOrder(keys, position)
    const values = new Array<unknown>(fields.length)
    for (let i = 0; i < fields.length; i++) {
      const { read, optional } = fields[i]!
      const value = v[names[i]!]
      // Absent: skipped when optional (an own undefined is not JSON: zod decides).
      if (value === undefined) {
        if (optional && !Object.hasOwn(v, names[i]!)) continue
        return MISMATCH
      }
      if (value === null && dropsNull[i]) {
        if (!optional) return MISMATCH
        same = false
        continue
      }
      const result = read(value)
      if (result === MISMATCH) return MISMATCH
      if (result !== value) same = false
      values[i] = result
    }
    for (const key of keys) {
      if (position.has(key)) continue
      if (key === '__proto__' || v[key] === undefined) return MISMATCH
    }
    if (same) return v
    const out: Record<string, unknown> = {}
    for (let i = 0; i < fields.length; i++) if (values[i] !== undefined) out[names[i]!] = values[i]
    for (const key of keys) if (!position.has(key)) out[key] = v[key]
    return out
  }
}

/** Whether the known keys come first, in the shape's order (then zod's copy would have the same order). */
function inShapeOrder(keys: readonly string[], position: ReadonlyMap<string, number>): boolean {
  let last = -1
  let unknownSeen = false
  for (const key of keys) {
    const at = position.get(key)
    if (at === undefined) unknownSeen = true
    else if (unknownSeen || at < last) return false
    else last = at
  }
  return true
}

/** A field that must be present. */
export function required(read: Reader): FieldReader {
  return { read, optional: false }
}

/** `.exactOptional()`: absent stays absent. */
export function optional(read: Reader): FieldReader {
  return { read, optional: true }
}
