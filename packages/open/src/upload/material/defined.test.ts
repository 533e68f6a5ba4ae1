import { expect, test } from 'vitest'
import { defined } from './defined.ts'

test('drops the undefined fields and keeps the others, in order, null included', () => {
  const kept = defined({ a: 1, b: undefined, c: null, d: '' })
  expect(kept).toEqual({ a: 1, c: null, d: '' })
  expect(Object.keys(kept)).toEqual(['a', 'c', 'd'])
  expect('b' in kept).toBe(false)
})
