/**
 * Lossless JSON. The service uses 64-bit ids; `JSON.parse` silently rounds any integer beyond
 * 2^53. Parsing keeps every digit: a value at an id key (see ids.ts) becomes a decimal string,
 * whatever its size, and any other integer too large for a number becomes its decimal string.
 * Serialising writes `bigint` values as raw JSON integers, so ids go back with all their digits.
 */

const NO_KEYS: ReadonlySet<string> = new Set()

function isNumberChar(code: number): boolean {
  // digits . e E + -
  return (
    (code >= 48 && code <= 57) || code === 46 || code === 101 || code === 69 || code === 43 || code === 45
  )
}

/**
 * Quote every integer literal beyond 2^53 that stands outside a string, so `JSON.parse` reads it
 * as its exact digits (after `marker`, JSON text put before the digits inside the quotes).
 * Hand-written rather than a regular expression over the whole text: strings are skipped with
 * indexOf and only the text between them is read: half the CPU (1.8 to 0.9 µs) on an asset event
 * whose five ids are 19 digits (json.property.test.ts holds it to the regular-expression version).
 */
function quoteBigIntegers(text: string, marker = ''): string {
  let out = ''
  let last = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      i = closingQuote(text, i)
      continue
    }
    if (c < 48 || c > 57) continue
    let end = i + 1
    while (end < n && isDigit(text.charCodeAt(end))) end++
    // Candidates: runs of 16+ digits (2^53 has 16 digits, so nothing shorter can be unsafe).
    if (end - i >= 16) {
      const start = text.charCodeAt(i - 1) === 45 /* - */ ? i - 1 : i
      // Part of a float or an exponent (1.2345678901234567e30): not an integer literal.
      const inNumber = isNumberChar(text.charCodeAt(start - 1)) || isNumberChar(text.charCodeAt(end))
      const digits = text.slice(start, end)
      if (!inNumber && !Number.isSafeInteger(Number(digits))) {
        out += `${text.slice(last, start)}"${marker}${digits}"`
        last = end
      }
    }
    i = end - 1
  }
  return last === 0 ? text : out + text.slice(last)
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/** The index of the quote that closes the string opened at `open` (the text's length if none). */
function closingQuote(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    // Escaped when an odd number of backslashes stands right before it.
    let backslashes = 0
    while (text.charCodeAt(q - 1 - backslashes) === 92 /* \ */) backslashes++
    if (backslashes % 2 === 0) return q
  }
  return text.length
}

function idValue(value: unknown): unknown {
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : value
}

/** In place: the values at id keys, anywhere in `value`, become decimal strings. */
function stringifyIds(value: unknown, idKeys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) {
    for (const item of value) stringifyIds(item, idKeys)
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const v = record[key]
      if (idKeys.has(key)) {
        // An id, an array of ids, or a map whose values are ids (pendingInboundIdToMaterialId).
        if (typeof v === 'number') record[key] = idValue(v)
        else if (Array.isArray(v)) record[key] = v.map(idValue)
        else if (typeof v === 'object' && v !== null) {
          for (const [k, inner] of Object.entries(v)) (v as Record<string, unknown>)[k] = idValue(inner)
        }
      } else if (typeof v === 'object' && v !== null) stringifyIds(v, idKeys)
    }
  }
  return value
}

/**
 * Parse JSON without losing any integer digits: integers beyond 2^53 become their decimal
 * strings, and values at `idKeys` become decimal strings whatever their size. (A reviver with
 * JSON.parse source access does the same but costs several times more per value.)
 */
export function parseJson(text: string, idKeys: ReadonlySet<string> = NO_KEYS): unknown {
  const value: unknown = JSON.parse(quoteBigIntegers(text))
  return idKeys.size === 0 ? value : stringifyIds(value, idKeys)
}

/**
 * Parse JSON as a Java (Jackson) service reads it: an integer literal beyond 2^53 becomes a
 * `bigint` with every digit, anything else as `JSON.parse` gives it, so the integer 123 and the
 * string "123" stay apart. Needs no reviver `context.source` (Node >= 21), unlike the obvious way.
 */
export function parseJsonWithBigInts(text: string): unknown {
  // Long integers are quoted behind a NUL, which a parsed string can only hold through a \u0000
  // escape: when the text has one, a random tag after the NUL keeps ours apart from it.
  const tag = /\\u0000/i.test(text) ? `${Math.random().toString(36).slice(2)}:` : ''
  const prefix = `\u0000${tag}`
  // In the JSON text the NUL is written as its escape.
  const value: unknown = JSON.parse(quoteBigIntegers(text, `\\u0000${tag}`), (_key, v: unknown) =>
    typeof v === 'string' && v.startsWith(prefix) && BIG_DIGITS.test(v.slice(prefix.length))
      ? BigInt(v.slice(prefix.length))
      : v,
  )
  return value
}

const BIG_DIGITS = /^-?\d{16,}$/

// Not in TypeScript's lib yet; present in Node >= 21 and current browsers.
const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON

const DIGITS = /^\d+$/

function toWire(value: unknown): unknown {
  return typeof value === 'string' && DIGITS.test(value) ? BigInt(value) : value
}

/** At an integer id key, decimal strings (alone, in arrays, or as map values) become bigints. */
function wireIds(key: string, value: unknown, integerKeys: ReadonlySet<string>): unknown {
  if (!integerKeys.has(key) || value === null || typeof value === 'bigint') return value
  if (Array.isArray(value)) return value.map(toWire)
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v)]))
  return toWire(value)
}

/**
 * `JSON.stringify`, with `bigint` values written as raw JSON integers (all digits kept), and the
 * decimal-string ids at `integerKeys` written as the JSON integers the service expects.
 */
export function stringifyJson(value: unknown, integerKeys: ReadonlySet<string> = NO_KEYS): string {
  if (!rawJSON) return stringifySentinel(value, integerKeys)
  return JSON.stringify(value, (key, v: unknown) => {
    const wire = wireIds(key, v, integerKeys)
    return typeof wire === 'bigint' ? rawJSON(wire.toString()) : wire
  })
}

// Where JSON.rawJSON is missing: mark bigints with a sentinel string, then unquote them.
function stringifySentinel(value: unknown, integerKeys: ReadonlySet<string> = NO_KEYS): string {
  const text = JSON.stringify(value, (key, v: unknown) => {
    const wire = wireIds(key, v, integerKeys)
    return typeof wire === 'bigint' ? `\u0000bigint:${wire}` : wire
  })
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1')
}

/** The fallback path, exposed so tests cover it on engines that do not need it. */
export const internals = { stringifySentinel, quoteBigIntegers }
