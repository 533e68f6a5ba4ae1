import {
  ServiceApiError,
  ServiceConnectionError,
  ServiceRateLimitError,
  ServiceTimeoutError,
} from '../errors/errors.ts'

export interface RetryOptions {
  /** Retries after the first attempt. Default 2 (three attempts in all). */
  maxRetries?: number
  /** Backoff before the first retry; it doubles each time, with jitter. Default 500 ms. */
  initialDelayMs?: number
  /** Cap for one backoff. Default 8,000 ms. */
  maxDelayMs?: number
  /** A `Retry-After` longer than this is not waited out: the error is thrown. Default 60,000 ms. */
  maxRetryAfterMs?: number
}

export type RetryPolicy = Required<RetryOptions>

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
}

export function resolveRetry(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, maxRetries: 0 }
  return { ...DEFAULT_RETRY, ...options }
}

/**
 * Whether a failed attempt may be sent again. Idempotent requests are retried on anything
 * transient. A non-idempotent one (a create) only when the service provably did not act on it:
 * the connection was never made, or the service refused it with 429 / busy before doing anything.
 */
export function isRetryableFor(error: unknown, idempotent: boolean): boolean {
  if (ServiceRateLimitError.isInstance(error)) return true
  if (ServiceConnectionError.isInstance(error)) return idempotent || error.reachedServer === false
  if (ServiceTimeoutError.isInstance(error)) return idempotent
  if (ServiceApiError.isInstance(error)) return idempotent && error.isRetryable
  return false
}

/**
 * The pause before retry number `retry` (0-based): exponential with equal jitter, never less
 * than the service's `Retry-After`. `undefined` when the service asks for a longer wait than allowed.
 */
export function backoffDelay(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return undefined
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry)
  const delay = ceiling / 2 + (random() * ceiling) / 2
  return Math.round(Math.max(delay, retryAfterMs ?? 0))
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
