import { describe, expect, test } from 'vitest'
import { idSchema } from './ids.ts'

function message(value: unknown): string | undefined {
  const result = idSchema.safeParse(value)
  return result.success ? undefined : result.error.issues.map((i) => i.message).join('; ')
}

describe('idSchema', () => {
  test('outputs the decimal string of digit strings, safe integers and bigints', () => {
    expect(idSchema.parse('1673603133161799680')).toBe('1673603133161799680')
    expect(idSchema.parse(1673603133161799680n)).toBe('1673603133161799680')
    expect(idSchema.parse(42)).toBe('42')
    expect(idSchema.parse(0)).toBe('0')
    expect(idSchema.parse('0')).toBe('0')
    expect(idSchema.parse(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991')
    expect(idSchema.parse('9223372036854775807')).toBe('9223372036854775807')
  })

  test('canonicalises leading zeros (a raw JSON integer cannot have them)', () => {
    expect(idSchema.parse('007')).toBe('7')
    expect(idSchema.parse('000')).toBe('0')
  })

  test('refuses numbers that have already lost digits', () => {
    // 1673603133161799680 as a number is 1673603133161799700: the id is gone.
    expect(message(Number('1673603133161799680'))).toMatch(
      /beyond Number\.MAX_SAFE_INTEGER.*pass the id as a string or a bigint/,
    )
    expect(message(2 ** 53)).toMatch(/MAX_SAFE_INTEGER/)
  })

  test('refuses what is not a non-negative integer id, saying why', () => {
    expect(message(-1)).toBe('must be a non-negative integer id, not -1')
    expect(message(1.5)).toBe('must be a non-negative integer id, not 1.5')
    expect(message(Number.NaN)).toMatch(/^must be an id/)
    expect(message(-3n)).toBe('must be a non-negative id, not -3')
    expect(message('abc')).toBe('must be an id made of decimal digits only, not "abc"')
    expect(message('')).toBe('must be an id made of decimal digits only, not ""')
    expect(message(' 12')).toMatch(/decimal digits only/)
    expect(message('-12')).toMatch(/decimal digits only/)
    expect(message('1e3')).toMatch(/decimal digits only/)
    expect(message('9223372036854775808')).toBe(
      "id 9223372036854775808 is beyond the 64-bit range of the service's ids",
    )
    expect(message(undefined)).toBe('is required')
    expect(message(true)).toBe(
      'must be an id: a string of decimal digits, a non-negative safe integer or a bigint',
    )
    expect(message({ id: 1 })).toMatch(/must be an id/)
  })

  test('keeps long invalid input out of its message', () => {
    expect(message('x'.repeat(500))?.length).toBeLessThan(100)
  })
})
