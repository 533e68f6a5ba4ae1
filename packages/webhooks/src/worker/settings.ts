import { type RetryOptions, ServiceValidationError } from '@service-sdk/core'
import type { RetryPolicy } from '@service-sdk/core/internal'

export interface ProcessingOptions {
  /** Events run at the same time in this process. Default 8. */
  concurrency?: number
  /**
   * How long a claim holds before another worker may take the event (its worker presumably
   * crashed). Renewed while a handler runs, so a slow handler keeps its event. Default 30 s.
   */
  leaseMs?: number
  /** How often the store is polled for retries that fell due and expired leases. Default 1 s. */
  pollIntervalMs?: number
  /**
   * Retries of a failed event before it is moved to the dead letters, and the backoff between
   * them (core's shape; `maxRetryAfterMs` does not apply). Defaults: `maxRetries` 11 (twelve
   * attempts), `initialDelayMs` 5 s, `maxDelayMs` 1 h.
   */
  retry?: RetryOptions
}

/** The processing options with their defaults, checked. */
export interface ProcessingSettings {
  concurrency: number
  leaseMs: number
  pollIntervalMs: number
  retry: RetryPolicy
}

/** With these, the twelve attempts span between about 1.2 and 2.4 hours before the dead letters. */
export const DEFAULT_EVENT_RETRY: RetryPolicy = {
  maxRetries: 11,
  initialDelayMs: 5_000,
  maxDelayMs: 3_600_000,
  maxRetryAfterMs: Number.POSITIVE_INFINITY,
}

export function processingSettings(options: ProcessingOptions): ProcessingSettings {
  const given = options.retry ?? {}
  const retry: RetryPolicy = {
    maxRetries: given.maxRetries ?? DEFAULT_EVENT_RETRY.maxRetries,
    initialDelayMs: given.initialDelayMs ?? DEFAULT_EVENT_RETRY.initialDelayMs,
    maxDelayMs: given.maxDelayMs ?? DEFAULT_EVENT_RETRY.maxDelayMs,
    maxRetryAfterMs: DEFAULT_EVENT_RETRY.maxRetryAfterMs,
  }
  const settings = {
    concurrency: options.concurrency ?? 8,
    leaseMs: options.leaseMs ?? 30_000,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    retry,
  }
  const issues: Array<{ path: string; message: string }> = []
  for (const name of ['concurrency', 'leaseMs', 'pollIntervalMs'] as const) {
    const value = settings[name]
    if (!Number.isFinite(value) || value <= 0)
      issues.push({ path: name, message: 'must be a positive number' })
  }
  if (!Number.isSafeInteger(retry.maxRetries) || retry.maxRetries < 0)
    issues.push({ path: 'retry.maxRetries', message: 'must be a non-negative integer' })
  for (const name of ['initialDelayMs', 'maxDelayMs'] as const) {
    const value = retry[name]
    if (!Number.isFinite(value) || value < 0)
      issues.push({ path: `retry.${name}`, message: 'must be a non-negative number' })
  }
  if (issues.length > 0) throw new ServiceValidationError('processing options', issues)
  return settings
}
