import { describe, expect, test } from 'vitest'
import { invalid, SelectorError, type SelectorErrorCode } from './errors.ts'

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
    ['validation_error', false],
    ['unsupported', false],
  ])('%s: isRetryable %s', ([code, retryable]) => {
    const error = new SelectorError(code, 'm')
    expect(error.code).toBe(code)
    expect(error.isRetryable).toBe(retryable)
  })

  test('toJSON holds name, code, message, isRetryable and issues only', () => {
    const error = new SelectorError('aborted', 'stopped', new Error('secret reason'))
    expect(error.toJSON()).toEqual({
      name: 'SelectorError',
      code: 'aborted',
      message: 'stopped',
      isRetryable: false,
      issues: [],
    })
    expect(JSON.parse(JSON.stringify(error))).toEqual(error.toJSON())
    expect(error.cause).toBeInstanceOf(Error)
    expect('cause' in new SelectorError('timeout', 'm')).toBe(false)
  })

  test("a bad option is a validation_error naming it in issues, as core's ServiceValidationError does", () => {
    let error: SelectorError | undefined
    try {
      invalid('appUrl', 'must be an absolute http(s) URL.')
    } catch (caught) {
      error = caught as SelectorError
    }
    if (!error) throw new TypeError('invalid() did not throw')
    expect(SelectorError.isInstance(error)).toBe(true)
    expect(error.code).toBe('validation_error')
    expect(error.issues).toEqual([{ path: 'appUrl', message: 'must be an absolute http(s) URL.' }])
    expect(error.message).toBe('appUrl must be an absolute http(s) URL.')
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
