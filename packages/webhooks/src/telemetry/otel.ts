/**
 * The receiver's and the worker's metrics as OpenTelemetry instruments (the `/otel` entry).
 */
import {
  type Attributes,
  type BatchObservableCallback,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
} from '@opentelemetry/api'
import { OptionIssues } from '../option-checks.ts'
import type { EventStatus, WebhookStore } from '../stores/store.ts'
import { eventTypeAttribute, type WebhookMetrics } from './metrics.ts'

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

/** The counters, each `[name, unit, description]`. */
const COUNTERS = {
  received: ['service.webhook.deliveries.received', '{delivery}', 'Deliveries answered by the receiver'],
  stored: ['service.webhook.events.stored', '{event}', 'Events stored (acknowledged 200)'],
  duplicates: ['service.webhook.deliveries.duplicate', '{delivery}', 'Deliveries of an event already stored'],
  refused: ['service.webhook.deliveries.refused', '{delivery}', 'Deliveries refused, by error.type'],
  processed: ['service.webhook.events.processed', '{event}', 'Events whose handlers all succeeded'],
  retried: ['service.webhook.events.retried', '{event}', 'Failed attempts scheduled to run again'],
  dead: ['service.webhook.events.dead_lettered', '{event}', 'Events moved to the dead letters'],
} as const

type Instruments = Record<keyof typeof COUNTERS, Counter> & { handler: Histogram; commit: Histogram }

function instruments(meter: Meter): Instruments {
  const duration = (name: string, description: string) =>
    meter.createHistogram(name, {
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    })
  const counters = Object.fromEntries(
    Object.entries(COUNTERS).map(([key, [name, unit, description]]) => [
      key,
      meter.createCounter(name, { unit, description }),
    ]),
  ) as Record<keyof typeof COUNTERS, Counter>
  return {
    ...counters,
    handler: duration('service.webhook.handler.duration', 'How long one attempt of the handlers ran'),
    commit: duration('service.webhook.store.commit.duration', 'How long the store took to commit an insert'),
  }
}

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
  const i = instruments(meter)
  const byType = (eventType: string): Attributes => ({ 'webhook.event_type': eventTypeAttribute(eventType) })
  return {
    delivery(outcome, reason) {
      i.received.add(1, { 'webhook.outcome': outcome })
      if (outcome === 'stored') i.stored.add(1)
      else if (outcome === 'duplicate') i.duplicates.add(1)
      else i.refused.add(1, { 'error.type': reason ?? '_OTHER' })
    },
    storeCommit: (seconds, outcome) => i.commit.record(seconds, { 'webhook.outcome': outcome }),
    handled(eventType, seconds, errorType) {
      i.handler.record(seconds, { ...byType(eventType), ...(errorType ? { 'error.type': errorType } : {}) })
    },
    settled(eventType, outcome) {
      ;({ done: i.processed, retry: i.retried, dead: i.dead })[outcome].add(1, byType(eventType))
    },
    observe: (store) => (options.observeBacklog === false ? () => {} : observeBacklog(meter, store)),
  }
}

/** The backlog gauges, read from `store` at each collection; returns how to stop. */
function observeBacklog(meter: Meter, store: WebhookStore): () => void {
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
    const read = await Promise.all([store.counts(), store.oldestPending?.() ?? null]).catch(() => undefined)
    if (!read) return
    const [counts, oldest] = read
    for (const [status, n] of Object.entries(counts) as Array<[EventStatus, number]>)
      result.observe(backlog, n, { 'webhook.status': status })
    result.observe(age, oldest === null ? 0 : Math.max(0, Date.now() - oldest) / 1000)
  }
  meter.addBatchObservableCallback(callback, [backlog, age])
  return () => meter.removeBatchObservableCallback(callback, [backlog, age])
}
