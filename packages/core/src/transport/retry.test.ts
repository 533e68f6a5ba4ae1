import { describe, expect, test } from 'vitest'
import {
  ServiceConnectionError,
  ServiceInvalidRequestError,
  ServiceRateLimitError,
  ServiceServerError,
  ServiceTimeoutError,
} from '../errors/errors.ts'
import { backoffDelay, DEFAULT_RETRY, isRetryableFor, parseRetryAfter, resolveRetry } from './retry.ts'

const api = {
  status: 500,
  code: 'server_error',
  message: 'x',
  area: 'team',
  method: 'POST',
  path: '/p',
} as const

describe('isRetryableFor', () => {
  const cases = [
    ['5xx', new ServiceServerError(api), true, false],
    ['429', new ServiceRateLimitError({ ...api, status: 429 }), true, true],
    ['400', new ServiceInvalidRequestError({ ...api, status: 400 }), false, false],
    ['timeout', new ServiceTimeoutError('t', { timeoutMs: 1 }), true, false],
    ['reset (may have reached)', new ServiceConnectionError('c', { reachedServer: 'unknown' }), true, false],
    ['refused (never sent)', new ServiceConnectionError('c', { reachedServer: false }), true, true],
    ['a plain Error', new Error('bug'), false, false],
  ] as const
  test.each(cases)('%s: idempotent %s, create %s', (_n, error, idempotent, create) => {
    expect(isRetryableFor(error, true)).toBe(idempotent)
    expect(isRetryableFor(error, false)).toBe(create)
  })
})

describe('backoffDelay', () => {
  test('grows exponentially within [ceiling/2, ceiling] and is capped', () => {
    const p = resolveRetry({ initialDelayMs: 100, maxDelayMs: 1000 })
    expect(backoffDelay(0, p, undefined, () => 0)).toBe(50)
    expect(backoffDelay(0, p, undefined, () => 1)).toBe(100)
    expect(backoffDelay(2, p, undefined, () => 1)).toBe(400)
    expect(backoffDelay(10, p, undefined, () => 1)).toBe(1000)
  })

  test('never waits less than Retry-After, and refuses one beyond the cap', () => {
    expect(backoffDelay(0, DEFAULT_RETRY, 5_000, () => 0)).toBe(5_000)
    expect(backoffDelay(0, DEFAULT_RETRY, DEFAULT_RETRY.maxRetryAfterMs + 1, () => 0)).toBeUndefined()
  })

  test('retry: false means no retries', () => {
    expect(resolveRetry(false).maxRetries).toBe(0)
  })
})

describe('parseRetryAfter', () => {
  test('seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000)
    expect(parseRetryAfter('0.5')).toBe(500)
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000)
    expect(parseRetryAfter('soon')).toBeUndefined()
    expect(parseRetryAfter(null)).toBeUndefined()
  })
})
