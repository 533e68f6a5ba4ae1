export interface RetryOptions {
  /** Attempts before an event is moved to the dead letters. Default 12. */
  maxAttempts?: number
  /** Delay before the second attempt. Default 5 s. */
  minDelayMs?: number
  /** Ceiling of the delay. Default 1 h. */
  maxDelayMs?: number
}

export const DEFAULT_RETRY = { maxAttempts: 12, minDelayMs: 5_000, maxDelayMs: 3_600_000 } as const

/**
 * Exponential backoff with jitter: after attempt n, wait between half and all of
 * min(max, min * 2^(n-1)), so events that failed together do not all return together.
 * With the defaults, twelve attempts span between about 1.2 and 2.4 hours before the dead letters.
 */
export function retryDelay(attempt: number, options: Required<RetryOptions>, random: () => number): number {
  const base = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(base / 2 + (random() * base) / 2)
}
