import { describe, expect, test } from 'vitest'
import { internals, parseJson, parseJsonWithBigInts, stringifyJson } from './json.ts'

const ids = new Set(['id', 'folderIds', 'pendingInboundIdToMaterialId'])
const BIG = '1673603133161799680'

describe('parseJson', () => {
  const parse = parseJson

  test('an integer beyond 2^53 keeps every digit', () => {
    expect(parse(`{"size": ${BIG}, "nested": [${BIG}, 1]}`)).toEqual({ size: BIG, nested: [BIG, 1] })
  })

  test('values at id keys become strings whatever their size', () => {
    const body = `{"id": 7, "folderIds": [1, ${BIG}], "pendingInboundIdToMaterialId": {"5": 6, "8": ${BIG}}, "roleId": 3}`
    expect(parse(body, ids)).toEqual({
      id: '7',
      folderIds: ['1', BIG],
      pendingInboundIdToMaterialId: { '5': '6', '8': BIG },
      roleId: 3,
    })
  })

  test('ids become strings also in bodies without long numbers (the fast path), at any depth', () => {
    const body =
      '{"id": 7, "folderIds": [1, 2], "pendingInboundIdToMaterialId": {"5": 6}, "list": [{"id": 3, "n": 4}], "n": 5}'
    expect(parse(body, ids)).toEqual({
      id: '7',
      folderIds: ['1', '2'],
      pendingInboundIdToMaterialId: { '5': '6' },
      list: [{ id: '3', n: 4 }],
      n: 5,
    })
  })

  test('safe numbers, floats, negatives and strings are untouched', () => {
    const body = `{"a": 1.5, "b": -12, "c": 9007199254740991, "d": "${BIG}", "e": 1e21, "f": "x\\"${BIG}"}`
    expect(parse(body)).toEqual({ a: 1.5, b: -12, c: 9007199254740991, d: BIG, e: 1e21, f: `x"${BIG}` })
  })

  test('a negative big integer keeps its digits', () => {
    expect(parse(`[-${BIG}]`)).toEqual([`-${BIG}`])
  })

  test('long digit runs inside strings, escaped quotes, floats and exponents are left alone', () => {
    const body = `{"a": "x:${BIG}, \\"${BIG}", "b": 1.${BIG}, "c": ${BIG}e2, "d": [${BIG}], "e": "\\\\", "f": ${BIG}}`
    expect(parse(body)).toEqual({
      a: `x:${BIG}, "${BIG}`,
      b: Number(`1.${BIG}`),
      c: Number(`${BIG}e2`),
      d: [BIG],
      e: '\\',
      f: BIG,
    })
  })

  test('whitespace around big integers is fine', () => {
    expect(parse(`{ "id" :\n  ${BIG}\n}`, ids)).toEqual({ id: BIG })
  })

  test('malformed JSON still throws', () => {
    expect(() => parse('{"a":')).toThrow(SyntaxError)
  })
})

describe('stringifyJson', () => {
  test.each([
    ['JSON.rawJSON', stringifyJson],
    ['fallback (sentinel)', internals.stringifySentinel],
  ])('writes bigint as a raw integer with %s', (_name, stringify) => {
    expect(stringify({ folderIds: [BigInt(BIG), 2n], name: 'a\u0000b' })).toBe(
      `{"folderIds":[${BIG},2],"name":"a\\u0000b"}`,
    )
  })

  test.each([
    ['JSON.rawJSON', stringifyJson],
    ['fallback (sentinel)', internals.stringifySentinel],
  ])('writes decimal-string ids at integer keys as JSON integers with %s', (_name, stringify) => {
    const keys = new Set(['orgId', 'folderIds', 'map'])
    const body = {
      orgId: BIG,
      folderIds: ['0', BIG],
      map: { a: '5' },
      name: '123',
      userId: '42',
      other: ['7'],
    }
    expect(stringify(body, keys)).toBe(
      `{"orgId":${BIG},"folderIds":[0,${BIG}],"map":{"a":5},"name":"123","userId":"42","other":["7"]}`,
    )
  })

  test('round trip keeps a 19-digit id exact', () => {
    const text = stringifyJson({ id: BigInt(BIG) })
    expect(parseJson(text, ids)).toEqual({ id: BIG })
  })
})

describe('parseJsonWithBigInts (the simulator reads request bodies as a Java service does)', () => {
  test('integers beyond 2^53 become exact bigints; strings of digits stay strings; safe numbers stay numbers', () => {
    const text =
      '{"a":1673603133161799680,"b":"1673603133161799680","c":42,"d":[-9007199254740993,1.5e300,9007199254740991],"e":"x 12345678901234567890"}'
    expect(parseJsonWithBigInts(text)).toEqual({
      a: 1673603133161799680n,
      b: '1673603133161799680',
      c: 42,
      d: [-9007199254740993n, 1.5e300, 9007199254740991],
      e: 'x 12345678901234567890',
    })
  })

  test('a string holding a NUL escape and digits is never mistaken for a long integer', () => {
    const text = '{"s":"\\u00001673603133161799680","n":1673603133161799680}'
    expect(parseJsonWithBigInts(text)).toEqual({ s: '\u00001673603133161799680', n: 1673603133161799680n })
  })

  test('malformed JSON still throws', () => {
    expect(() => parseJsonWithBigInts('{"a":1673603133161799680')).toThrow(SyntaxError)
  })
})
