import { isKnownEventType } from '../events/parse.ts'
import type { WebhookStore } from '../stores/store.ts'

/**
 * The receiver's and the worker's measurements, through this small interface: `otelMetrics()`
 * (`@service-sdk/webhooks/otel`) records them as OpenTelemetry instruments; your own
 * implementation can send them anywhere. Without the `metrics` option nothing is measured.
 */
export interface WebhookMetrics {
  /** A delivery answered: stored, a duplicate, or refused (`reason`: its error code). */
  delivery(outcome: 'stored' | 'duplicate' | 'refused', reason?: string): void
  /** How long the store took to commit one insert, in seconds (group commit wait included). */
  storeCommit(seconds: number, outcome: 'inserted' | 'duplicate' | 'failed'): void
  /**
   * One attempt's handlers ran for `seconds`; `errorType` when they failed (an error's code or
   * class, never its message). `eventType` is one the SDK knows, or `_OTHER`.
   */
  handled(eventType: string, seconds: number, errorType?: string): void
  /** An attempt's outcome: `done`, `retry` (pending again) or `dead` (a dead letter). */
  settled(eventType: string, outcome: 'done' | 'retry' | 'dead'): void
  /** Report this store's backlog whenever the metrics are collected; returns how to stop. */
  observe(store: WebhookStore): () => void
}

/**
 * An event type as a metric attribute: a type the SDK knows, or `_OTHER` (a sender can put any
 * string there, and each distinct value would be a time series of its own).
 */
export function eventTypeAttribute(eventType: string): string {
  return isKnownEventType(eventType) ? eventType : '_OTHER'
}

/** Seconds since `start` (a `performance.now()`). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000
