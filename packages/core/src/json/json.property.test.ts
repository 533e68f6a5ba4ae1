import fc from 'fast-check'
import { expect, test } from 'vitest'
import { internals, parseJson, stringifyJson } from './json.ts'

// Any JSON document whose integers may exceed 2^53: written with raw bigints, read back, every
// integer beyond 2^53 comes back as its exact digits, everything else as JSON.parse reads it.
const bigInteger = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: fc.constantFrom('"', '\\', '1', '9', ':', ',', '{', ' ') }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    bigInteger,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('node'), { maxKeys: 5 }),
  ),
})).node

function expected(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  // A double with an integer value beyond 2^53 is printed with all its digits (below 1e21), and
  // such a literal reads back as its digits: the parser cannot tell it from a 64-bit id.
  if (typeof v === 'number')
    return Number.isInteger(v) && !Number.isSafeInteger(v) && Math.abs(v) < 1e21
      ? String(v)
      : Object.is(v, -0)
        ? 0
        : v
  if (Array.isArray(v)) return v.map(expected)
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x)]))
  return v
}

test('parseJson(stringifyJson(x)) keeps every integer digit, for any JSON', () => {
  fc.assert(
    fc.property(value, fc.boolean(), (v, pretty) => {
      const text = pretty ? JSON.stringify(JSON.parse(stringifyJson(v)), null, 2) : stringifyJson(v)
      // Pretty-printing through JSON.parse would round: only compare the compact form exactly.
      if (pretty) expect(() => parseJson(text)).not.toThrow()
      else expect(parseJson(text)).toEqual(expected(v))
    }),
    { numRuns: 2000 },
  )
})

// The regular-expression version quoteBigIntegers replaced, verbatim, as the reference: for any
// text (valid JSON or not), the same output, so parse results and parse errors stay the same.
function quoteBigIntegersByRegExp(text: string, marker = ''): string {
  const isNumberChar = (code: number) =>
    (code >= 48 && code <= 57) || code === 46 || code === 101 || code === 69 || code === 43 || code === 45
  let out = ''
  let last = 0
  let scanned = 0
  let inString = false
  for (const match of text.matchAll(/-?\d{16,}/g)) {
    const start = match.index
    for (let i = scanned; i < start; i++) {
      const c = text.charCodeAt(i)
      if (!inString) inString = c === 34
      else if (c === 92) i++
      else if (c === 34) inString = false
    }
    const end = start + match[0].length
    scanned = end
    if (inString) continue
    if (isNumberChar(text.charCodeAt(start - 1)) || isNumberChar(text.charCodeAt(end))) continue
    if (Number.isSafeInteger(Number(match[0]))) continue
    out += `${text.slice(last, start)}"${marker}${match[0]}"`
    last = end
  }
  return last === 0 ? text : out + text.slice(last)
}

test('quoteBigIntegers gives what the regular expression gave, for JSON and for any text', () => {
  const digits = fc.string({ unit: fc.constantFrom('0', '1', '9'), minLength: 14, maxLength: 20 })
  const jsonish = fc.string({
    unit: fc.oneof(
      fc.constantFrom('"', '\\', '-', '+', '.', 'e', 'E', ':', ',', '[', '{', ' ', 'u', '0', '9'),
      digits,
    ),
    maxLength: 30,
  })
  const text = fc.oneof(
    value.map((v) => stringifyJson(v)),
    value.map((v) => JSON.stringify(JSON.parse(stringifyJson(v)), null, 1)),
    jsonish,
  )
  fc.assert(
    fc.property(text, fc.constantFrom('', '\\u0000x:'), (t, marker) => {
      expect(internals.quoteBigIntegers(t, marker)).toBe(quoteBigIntegersByRegExp(t, marker))
    }),
    { numRuns: 20_000 },
  )
})
