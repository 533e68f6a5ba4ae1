import { describe, expect, test } from 'vitest'
import { SelectorError, type SelectorErrorCode } from './errors.ts'

describe('SelectorError', () => {
  test('carries the SDK-wide cross-copy marker, non-enumerable, set to true', () => {
    const error = new SelectorError('timeout', 'late')
    const marker = Symbol.for('@service-sdk/error')
    expect((error as unknown as Record<symbol, unknown>)[marker]).toBe(true)
    expect(Object.getOwnPropertyDescriptor(error, marker)).toMatchObject({ enumerable: false, value: true })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('SelectorError')
  })

  test.for<[SelectorErrorCode, boolean]>([
    ['timeout', true],
    ['aborted', false],
    ['error', false],
    ['destroyed', false],
    ['invalid-options', false],
    ['unsupported', false],
  ])('%s: isRetryable %s', ([code, retryable]) => {
    const error = new SelectorError(code, 'm')
    expect(error.code).toBe(code)
    expect(error.isRetryable).toBe(retryable)
  })

  test('toJSON holds name, code, message and isRetryable only', () => {
    const error = new SelectorError('aborted', 'stopped', new Error('secret reason'))
    expect(error.toJSON()).toEqual({
      name: 'SelectorError',
      code: 'aborted',
      message: 'stopped',
      isRetryable: false,
    })
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.toJSON())
    expect(error.cause).toBeInstanceOf(Error)
    expect('cause' in new SelectorError('timeout', 'm')).toBe(false)
  })

  test('isInstance works across copies (it reads the marker, not the prototype)', () => {
    const fromAnotherCopy = Object.defineProperty(
      Object.assign(new Error('x'), { name: 'SelectorError' }),
      Symbol.for('@service-sdk/error'),
      {
        value: true,
      },
    )
    expect(SelectorError.isInstance(fromAnotherCopy)).toBe(true)
    expect(SelectorError.isInstance(new SelectorError('error', 'x'))).toBe(true)
    expect(SelectorError.isInstance(new Error('x'))).toBe(false)
    expect(SelectorError.isInstance({ name: 'SelectorError' })).toBe(false)
    expect(SelectorError.isInstance(null)).toBe(false)
    expect(SelectorError.isInstance('SelectorError')).toBe(false)
  })
})
