import type { RetryOptions } from '@service-sdk/core'
import type { RetryPolicy } from '@service-sdk/core/internal'
import { MAX_TIMER_MS, OptionIssues } from '../option-checks.ts'

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
   * them (core's shape with the receiver's own defaults; `maxRetryAfterMs` does not apply).
   */
  retry?: EventRetryOptions
}

/** `processing.retry`: core's `RetryOptions` with the defaults of `DEFAULT_EVENT_RETRY`. */
export interface EventRetryOptions
  extends Pick<RetryOptions, 'maxRetries' | 'initialDelayMs' | 'maxDelayMs'> {
  /** Retries of a failed event before it is moved to the dead letters. Default 11 (twelve attempts in all). */
  maxRetries?: number
  /** Backoff before the first retry; it doubles each time, with jitter. Default 5 s. */
  initialDelayMs?: number
  /** Cap for one backoff. Default 1 h. */
  maxDelayMs?: number
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

/** The processing options' other defaults (stated in `ProcessingOptions`' doc comments). */
export const DEFAULT_PROCESSING = { concurrency: 8, leaseMs: 30_000, pollIntervalMs: 1_000 } as const

/** At most this many events run at once in a process (claims take 4 × this). */
export const MAX_CONCURRENCY = 10_000

export function processingSettings(options: ProcessingOptions): ProcessingSettings {
  checkProcessing(options)
  const given = options.retry ?? {}
  return {
    concurrency: options.concurrency ?? DEFAULT_PROCESSING.concurrency,
    leaseMs: options.leaseMs ?? DEFAULT_PROCESSING.leaseMs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_PROCESSING.pollIntervalMs,
    retry: {
      maxRetries: given.maxRetries ?? DEFAULT_EVENT_RETRY.maxRetries,
      initialDelayMs: given.initialDelayMs ?? DEFAULT_EVENT_RETRY.initialDelayMs,
      maxDelayMs: given.maxDelayMs ?? DEFAULT_EVENT_RETRY.maxDelayMs,
      maxRetryAfterMs: DEFAULT_EVENT_RETRY.maxRetryAfterMs,
    },
  }
}

/** Each option a number in its range (timers: at most MAX_TIMER_MS, what a Node timer takes). */
function checkProcessing(options: ProcessingOptions): void {
  const issues = new OptionIssues('processing options')
  if (!issues.object('processing', options ?? {})) issues.throwIfAny()
  issues.number('concurrency', options.concurrency, { integer: true, min: 1, max: MAX_CONCURRENCY })
  issues.number('leaseMs', options.leaseMs, { min: 1, max: MAX_TIMER_MS })
  issues.number('pollIntervalMs', options.pollIntervalMs, { min: 1, max: MAX_TIMER_MS })
  if (issues.object('retry', options.retry)) {
    const retry = options.retry as Record<string, unknown>
    issues.number('retry.maxRetries', retry.maxRetries, {
      integer: true,
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
    })
    issues.number('retry.initialDelayMs', retry.initialDelayMs, { min: 0 })
    issues.number('retry.maxDelayMs', retry.maxDelayMs, { min: 0 })
  }
  issues.throwIfAny()
}
