import { backoffDelay } from '@service-sdk/core/internal'
import { describe, expect, test } from 'vitest'
import { DEFAULT_UPLOAD_RETRY } from '../options/options.ts'

describe('retries', () => {
  test("the upload's retries use core's backoff: doubling up to its cap, half of it random", () => {
    const policy = { ...DEFAULT_UPLOAD_RETRY, initialDelayMs: 100, maxDelayMs: 1000 }
    const delays = (random: () => number) =>
      [0, 1, 2, 3, 4].map((n) => backoffDelay(n, policy, undefined, random))
    expect(delays(() => 0)).toEqual([50, 100, 200, 400, 500])
    expect(delays(() => 1)).toEqual([100, 200, 400, 800, 1000])
    expect(DEFAULT_UPLOAD_RETRY).toMatchObject({ maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8000 })
  })
})
