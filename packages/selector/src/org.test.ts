import { expect, test } from 'vitest'
import { orgIdForSave } from './org.ts'

test('the personal space (orgId 1, or no orgId) is not passed to material-save', () => {
  expect(orgIdForSave('1')).toBeUndefined()
  expect(orgIdForSave(1)).toBeUndefined()
  expect(orgIdForSave(null)).toBeUndefined()
})

test('any other team space id is passed on, as a decimal string', () => {
  expect(orgIdForSave('7')).toBe('7')
  expect(orgIdForSave(7)).toBe('7')
  expect(orgIdForSave('0')).toBe('0')
  expect(orgIdForSave('1673603133161799680')).toBe('1673603133161799680')
})

test('a value that is not an id is a clear error, not a silent pass-through', () => {
  for (const bad of ['', 'abc', '-1', 1.5, -1, 2 ** 60]) {
    expect(() => orgIdForSave(bad), String(bad)).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    )
  }
})
