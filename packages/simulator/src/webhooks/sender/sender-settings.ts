import type { RetryOptions } from '@service-sdk/core'
import { DEFAULT_RETRY, type RetryPolicy, resolveRetry } from '@service-sdk/core/internal'
import { SimError } from '../../http/sim-error.ts'
import type { EventTimeFormat } from './delivery-faults.ts'

export interface WebhookSenderOptions {
  /**
   * Redelivery of a failed attempt, in the SDK's retry shape. Default `{ maxRetries: 5,
   * initialDelayMs: 500, maxDelayMs: 30_000 }`: six attempts, doubling with jitter. `false`: one attempt.
   */
  retry?: RetryOptions | false
  /** One delivery attempt. Default 10 000. */
  timeoutMs?: number
}

/** Bounded faults, switchable per test through `configure()`. */
export interface DeliveryFaults {
  /** Send a delivery twice (at-least-once, as real senders do). Default 0. */
  duplicateProbability?: number
  /**
   * Hold up to N queued deliveries and release them shuffled (every one out of place); held
   * deliveries are also released after a short quiet period. Default 0 (off).
   */
  reorderWindow?: number
  /** Folder callback eventTime: epoch-ms string (default, as the live sample), ISO 8601 with offset, or alternating. */
  eventTimeFormat?: EventTimeFormat
  /** Folder callback assets with every nullable field null (as the live sample). Default false. */
  nullHeavy?: boolean
}

/** A change of delivery policy or faults (`control.webhooks.configure`): the options given are replaced, `retry` merged. */
export type SenderUpdate = Partial<WebhookSenderOptions & DeliveryFaults>

export interface Settings extends Required<DeliveryFaults> {
  retry: RetryPolicy
  timeoutMs: number
}

export const DEFAULT_DELIVERY_RETRY: RetryPolicy = {
  ...DEFAULT_RETRY,
  maxRetries: 5,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
}

export function defaultSettings(): Settings {
  return {
    retry: { ...DEFAULT_DELIVERY_RETRY },
    timeoutMs: 10_000,
    duplicateProbability: 0,
    reorderWindow: 0,
    eventTimeFormat: 'epoch',
    nullHeavy: false,
  }
}

const KEYS = new Set(['retry', ...Object.keys(defaultSettings())])
const RETRY_KEYS = new Set(Object.keys(DEFAULT_RETRY))

/** Settings with `update` applied, or a SimError naming the first bad option (nothing changed then). */
export function withUpdate(settings: Settings, update: SenderUpdate): Settings {
  const next: Settings = { ...settings, retry: { ...settings.retry } }
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue
    if (!KEYS.has(key)) throw new SimError('bad_request', `Unknown webhook option: ${key}`)
    if (key === 'retry') next.retry = retryOf(value as RetryOptions | false, settings.retry)
    else (next as unknown as Record<string, unknown>)[key] = value
  }
  checkSettings(next)
  return next
}

function retryOf(value: RetryOptions | false, current: RetryPolicy): RetryPolicy {
  if (value === false) return resolveRetry(false)
  if (typeof value !== 'object' || value === null)
    throw new SimError('bad_request', 'retry must be an object or false')
  for (const key of Object.keys(value)) {
    if (!RETRY_KEYS.has(key)) throw new SimError('bad_request', `Unknown webhook retry option: ${key}`)
  }
  return { ...current, ...value }
}

const integer = (v: unknown, min: number) => Number.isSafeInteger(v) && (v as number) >= min

function checkSettings(next: Settings): void {
  for (const [key, value] of Object.entries(next.retry)) {
    if (!integer(value, 0)) throw new SimError('bad_request', `retry.${key} must be an integer >= 0`)
  }
  if (!integer(next.timeoutMs, 1)) throw new SimError('bad_request', 'timeoutMs must be an integer >= 1')
  if (!integer(next.reorderWindow, 0))
    throw new SimError('bad_request', 'reorderWindow must be an integer >= 0')
  const p = next.duplicateProbability
  if (typeof p !== 'number' || !(p >= 0 && p <= 1))
    throw new SimError('bad_request', 'duplicateProbability must be in [0, 1]')
  if (!['epoch', 'iso', 'mixed'].includes(next.eventTimeFormat)) {
    throw new SimError('bad_request', 'eventTimeFormat must be epoch, iso or mixed')
  }
  if (typeof next.nullHeavy !== 'boolean') throw new SimError('bad_request', 'nullHeavy must be a boolean')
}
