import fc from 'fast-check'
import { expect, test } from 'vitest'
import { utf8Length } from './utf8-length.ts'

test("the UTF-8 length is TextEncoder's, lone surrogates and pairs included", () => {
  const encoder = new TextEncoder()
  // Any UTF-16 code units, so lone and misordered surrogates come up as well as pairs.
  const units = fc
    .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd7f0, max: 0xe010 })))
    .map((codes) => String.fromCharCode(...codes))
  fc.assert(
    fc.property(fc.oneof(units, fc.string({ unit: 'grapheme' })), (text) => {
      expect(utf8Length(text)).toBe(encoder.encode(text).byteLength)
    }),
    { numRuns: 2000 },
  )
  expect(utf8Length('a\u00e9\u6587\ud83d\ude00\ud83d')).toBe(1 + 2 + 3 + 4 + 3)
})
