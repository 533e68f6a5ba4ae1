/**
 * Lossless JSON. The service uses 64-bit ids; `JSON.parse` silently rounds any integer beyond
 * 2^53. Parsing keeps every digit: a value at an id key (see ids.ts) becomes a decimal string,
 * whatever its size, and any other integer too large for a number becomes its decimal string.
 * Serialising writes `bigint` values as raw JSON integers, so ids go back with all their digits.
 */

interface ReviverContext {
  source?: string
}

const BIG_INTEGER = /^-?\d+$/

// JSON.parse source access (Node >= 21, Chrome >= 114) gives the literal text of each number.
const HAS_SOURCE = (() => {
  let seen = false
  JSON.parse('1', function (this: unknown, _k: string, v: unknown, ctx?: ReviverContext) {
    seen = typeof ctx?.source === 'string'
    return v
  } as Parameters<typeof JSON.parse>[1])
  return seen
})()

function idValue(value: unknown): unknown {
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : value
}

function reviverFor(idKeys: ReadonlySet<string>) {
  return function revive(this: unknown, key: string, value: unknown, ctx?: ReviverContext): unknown {
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) && ctx?.source !== undefined && BIG_INTEGER.test(ctx.source)) {
        return ctx.source
      }
      return idKeys.has(key) ? idValue(value) : value
    }
    if (idKeys.has(key) && typeof value === 'object' && value !== null) {
      // Arrays of ids, and maps whose values are ids (pendingInboundIdToMaterialId).
      if (Array.isArray(value)) return value.map(idValue)
      for (const [k, v] of Object.entries(value)) (value as Record<string, unknown>)[k] = idValue(v)
    }
    return value
  }
}

/**
 * Where the engine lacks source access: quote every integer literal of 16+ digits before
 * parsing (strings are skipped), so the reviver sees its exact digits.
 */
function quoteBigIntegers(text: string): string {
  let out = ''
  let last = 0
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 34 /* " */) {
      i++
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 /* \ */ ? 2 : 1
      i++
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i
      i++
      while (i < text.length && /[0-9eE.+-]/.test(text[i] as string)) i++
      const literal = text.slice(start, i)
      if (BIG_INTEGER.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, start)}"${literal}"`
        last = i
      }
    } else i++
  }
  return last === 0 ? text : out + text.slice(last)
}

const NO_KEYS: ReadonlySet<string> = new Set()

/** Parse JSON without losing any integer digits; values at `idKeys` become decimal strings. */
export function parseJson(text: string, idKeys: ReadonlySet<string> = NO_KEYS): unknown {
  return HAS_SOURCE ? JSON.parse(text, reviverFor(idKeys) as Reviver) : parseQuoted(text, idKeys)
}

type Reviver = Parameters<typeof JSON.parse>[1]

function parseQuoted(text: string, idKeys: ReadonlySet<string>): unknown {
  return JSON.parse(quoteBigIntegers(text), reviverFor(idKeys) as Reviver)
}

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

/** The fallback paths, exposed so tests cover them on engines that do not need them. */
export const internals = { parseQuoted, stringifySentinel, hasSourceAccess: HAS_SOURCE }
