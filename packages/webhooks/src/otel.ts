/**
 * `@service-sdk/webhooks/otel`: the receiver's and the worker's metrics as OpenTelemetry
 * instruments, through `@opentelemetry/api` (an optional peer dependency): to the meter provider
 * you registered (`NodeSDK`, `MeterProvider`), or nowhere when none is. See the README's
 * "Metrics" for each instrument, its unit and attributes.
 * @packageDocumentation
 */
import {
  type Attributes,
  type BatchObservableCallback,
  type MeterProvider,
  metrics,
} from '@opentelemetry/api'
import { eventTypeAttribute, type WebhookMetrics } from './metrics.ts'
import { OptionIssues } from './option-checks.ts'
import type { EventStatus } from './store.ts'

export type { WebhookMetrics } from './metrics.ts'

/** Options of {@link otelMetrics}. */
export interface OtelMetricsOptions {
  /** Default: the global provider (what `NodeSDK.start()` or `metrics.setGlobalMeterProvider()` set). */
  meterProvider?: MeterProvider
  /**
   * Read the store's backlog (counts by status, the oldest pending event) at each collection.
   * Default true. Each process reporting the same store reports the same figures: turn it off
   * in all but one when several share a PostgreSQL store.
   */
  observeBacklog?: boolean
}

/** The meter's name in your backend. */
export const METER_NAME = '@service-sdk/webhooks'

/** Histogram boundaries in seconds, as OpenTelemetry's semantic conventions advise for durations. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

/**
 * Metrics for the `metrics` option of `createWebhookReceiver` and `runWorker`. Throws
 * `ServiceValidationError` for options it cannot use.
 */
export function otelMetrics(options: OtelMetricsOptions = {}): WebhookMetrics {
  const issues = new OptionIssues('otelMetrics options')
  if (issues.object('options', options)) {
    if (options.meterProvider !== undefined && typeof options.meterProvider?.getMeter !== 'function')
      issues.add('meterProvider', 'must be an OpenTelemetry MeterProvider (with getMeter)')
    issues.boolean('observeBacklog', options.observeBacklog)
  }
  issues.throwIfAny()
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(METER_NAME)
  const counter = (name: string, unit: string, description: string) =>
    meter.createCounter(name, { unit, description })
  const duration = (name: string, description: string) =>
    meter.createHistogram(name, {
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    })
  const received = counter(
    'service.webhook.deliveries.received',
    '{delivery}',
    'Deliveries answered by the receiver',
  )
  const stored = counter('service.webhook.events.stored', '{event}', 'Events stored (acknowledged 200)')
  const duplicates = counter(
    'service.webhook.deliveries.duplicate',
    '{delivery}',
    'Deliveries of an event already stored',
  )
  const refused = counter(
    'service.webhook.deliveries.refused',
    '{delivery}',
    'Deliveries refused, by error.type',
  )
  const processed = counter(
    'service.webhook.events.processed',
    '{event}',
    'Events whose handlers all succeeded',
  )
  const retried = counter(
    'service.webhook.events.retried',
    '{event}',
    'Failed attempts scheduled to run again',
  )
  const dead = counter('service.webhook.events.dead_lettered', '{event}', 'Events moved to the dead letters')
  const handler = duration('service.webhook.handler.duration', 'How long one attempt of the handlers ran')
  const commit = duration(
    'service.webhook.store.commit.duration',
    'How long the store took to commit an insert',
  )
  const byType = (eventType: string): Attributes => ({ 'webhook.event_type': eventTypeAttribute(eventType) })
  return {
    delivery(outcome, reason) {
      received.add(1, { 'webhook.outcome': outcome })
      if (outcome === 'stored') stored.add(1)
      else if (outcome === 'duplicate') duplicates.add(1)
      else refused.add(1, { 'error.type': reason ?? '_OTHER' })
    },
    storeCommit: (seconds, outcome) => commit.record(seconds, { 'webhook.outcome': outcome }),
    handled(eventType, seconds, errorType) {
      handler.record(seconds, { ...byType(eventType), ...(errorType ? { 'error.type': errorType } : {}) })
    },
    settled(eventType, outcome) {
      ;({ done: processed, retry: retried, dead })[outcome].add(1, byType(eventType))
    },
    observe(store) {
      if (options.observeBacklog === false) return () => {}
      const backlog = meter.createObservableGauge('service.webhook.backlog', {
        unit: '{event}',
        description: 'Events in the store, by webhook.status',
      })
      const age = meter.createObservableGauge('service.webhook.backlog.oldest_pending.age', {
        unit: 's',
        description: 'How long the oldest pending event has waited since it was received (0: none pending)',
      })
      // A store that cannot answer now reports nothing this time (no stale figure); its failure
      // shows in the health check and the processing errors.
      const callback: BatchObservableCallback = async (result) => {
        const read = await Promise.all([store.counts(), store.oldestPending?.() ?? null]).catch(
          () => undefined,
        )
        if (!read) return
        const [counts, oldest] = read
        for (const [status, n] of Object.entries(counts) as Array<[EventStatus, number]>)
          result.observe(backlog, n, { 'webhook.status': status })
        result.observe(age, oldest === null ? 0 : Math.max(0, Date.now() - oldest) / 1000)
      }
      meter.addBatchObservableCallback(callback, [backlog, age])
      return () => meter.removeBatchObservableCallback(callback, [backlog, age])
    },
  }
}
