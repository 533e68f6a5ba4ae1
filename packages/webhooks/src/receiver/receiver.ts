import { type Logger, ServiceValidationError } from '@service-sdk/core'
import type { Instrumentation } from '@service-sdk/core/internal'
import type { WebhookError } from '../errors.ts'
import type { KnownEventType, UnknownWebhookEvent, WebhookEventOf } from '../events/events.ts'
import { DEFAULT_MAX_BODY_BYTES } from '../intake/body.ts'
import type { Delivery, Receipt } from '../intake/delivery.ts'
import { type OrderBy, orderKeys } from '../intake/order-key.ts'
import { createIntake, type Intake, receive } from '../intake/receive.ts'
import { tokenCheck } from '../intake/token.ts'
import { OptionIssues } from '../option-checks.ts'
import { sqliteStore } from '../stores/sqlite/sqlite.ts'
import type { EventStatus, ListOptions, StoredEvent, WebhookStore } from '../stores/store.ts'
import { checkList } from '../stores/store-checks.ts'
import type { WebhookMetrics } from '../telemetry/metrics.ts'
import { traceDelivery } from '../telemetry/trace.ts'
import type { ProcessingOptions, Worker, WorkerClock } from '../worker/worker.ts'
import type { Health, HealthOptions } from './health.ts'
import { checkHostOptions, redactedLogging, startHost } from './host.ts'
import type { DeadLetterHandler, WebhookHandler } from './processor.ts'
import type { Readiness } from './readiness.ts'
import { type RetentionOptions, type RetentionSettings, retentionSettings } from './retention.ts'

export type { HandlerContext, WebhookHandler } from './processor.ts'

export interface WebhookReceiverOptions {
  /**
   * The capability token: the last path segment of the URL you subscribe
   * (`https://example.com/webhooks/<token>`). Several tokens are all accepted (rotation).
   * `false` turns the check off; only do that when something else authenticates the sender.
   * `undefined` (an unset environment variable) is refused with a `ServiceValidationError`.
   */
  token: string | readonly string[] | false | undefined
  /** Where events wait to be processed. Default `sqliteStore('webhooks.sqlite')` (in the working directory). */
  store?: WebhookStore
  /**
   * Larger bodies are refused with 413 (logged as an error) without being read to the end.
   * Default 25 MiB.
   */
  maxBodyBytes?: number
  /** console, pino or anything with debug/info/warn/error; secrets are redacted. Default: silent. */
  logger?: Partial<Logger>
  /**
   * `false`: this process only receives and stores (ingest only); `runWorker` processes
   * elsewhere. Default: process here too.
   */
  processing?:
    | false
    | (ProcessingOptions & {
        /**
         * Start processing on the next turn of the event loop (after the `on()` calls that follow
         * `createWebhookReceiver`). `false`: call `start()` yourself. Default true.
         */
        autoStart?: boolean
      })
  /**
   * Refuse events that differ from the schema this SDK knows (an enum value added by the service,
   * a field of another type than documented): they are moved to the dead letters, the difference
   * in `lastError`, instead of reaching handlers with `context.warnings`. Default false.
   */
  strict?: boolean
  /**
   * Events that must run one at a time, in the order this receiver stored them: those with the
   * same key (`'folderId'`, `'materialId'`, or your function). The key is computed and stored on
   * arrival; every worker on the store then keeps that order. Default: no ordering. See the
   * README's "Ordering per key" for what it guarantees and costs.
   */
  orderBy?: OrderBy
  /**
   * How long finished events stay in the store: done events are deleted once they finished
   * `doneOlderThanMs` ago (default 7 days), dead letters after `deadOlderThanMs` (default never),
   * checked once soon after the receiver is created and then every `everyMs` (default 1 hour).
   * `false`: never prune (the inbox then grows by every event; prune with `events.prune()`).
   */
  retention?: RetentionOptions | false
  /** For tests: the time and randomness the worker uses. */
  clock?: WorkerClock
  /**
   * Tracing: a span per delivery and per processing attempt (`otelInstrumentation()` from
   * `@service-sdk/core/otel`). Default: none.
   */
  instrumentation?: Instrumentation
  /**
   * Metrics: counters of deliveries and outcomes, handler and commit durations, the backlog
   * (`otelMetrics()` from `@service-sdk/webhooks/otel`, or your own `WebhookMetrics`). Default: none.
   */
  metrics?: WebhookMetrics
}

export interface WebhookReceiver {
  /**
   * Handlers for an event type this SDK knows (or several), the event typed by its eventType. A
   * type it does not know, a misspelt one included, does not compile: for an event type the
   * service adds later, use `onUnknown`.
   */
  on<T extends KnownEventType>(eventType: T | readonly T[], handler: WebhookHandler<WebhookEventOf<T>>): void
  /**
   * The escape hatch for an eventType this SDK does not know yet (the service added one): the
   * event is an `UnknownWebhookEvent`, kept whole. Registering a type the SDK does not know logs
   * a warning once, at startup, so a misspelt one still shows.
   */
  onUnknown(eventType: string | readonly string[], handler: WebhookHandler<UnknownWebhookEvent>): void
  /** Every event, after the handlers for its type have been started. */
  onAny(handler: WebhookHandler): void
  /** Handler failures (each attempt), dead letters, and store failures. Never throws into the receiver. */
  onError(handler: (error: WebhookError) => void | Promise<void>): void
  /**
   * Each event moved to the dead letters, once: for an alert (its key, type, attempts and last
   * error, redacted; not its body). Never throws into the receiver.
   */
  onDeadLetter(handler: DeadLetterHandler): void
  /** Web-standard entry: Request in, Response out (Hono, Bun, Deno, Workers, Next.js route handlers). */
  fetch(request: Request): Promise<Response>
  /** Framework-neutral entry used by the adapters. */
  receive(delivery: Delivery): Promise<Receipt>
  /** Start processing stored events (done automatically unless `processing.autoStart` is false). */
  start(): void
  /** Stop claiming events; resolves when the handlers in flight have finished. */
  stop(): Promise<void>
  /** Process every event that is due now, and wait for it (for tests and scripts). */
  drain(): Promise<void>
  /** Stop, then close the store. */
  close(): Promise<void>
  /** Whether the store can be reached now: for a readiness probe (`{ ready: false }` → answer 503). */
  readiness(): Promise<Readiness>
  /**
   * The store reachable, this process's worker alive, and (with `maxBacklogAgeMs`) the backlog's
   * age under a threshold: for a liveness probe or an alert (`ok: false` → answer 503).
   */
  health(options?: HealthOptions): Promise<Health>
  /** Inspection and replay. */
  readonly events: {
    get(key: string): Promise<StoredEvent | undefined>
    list(options?: ListOptions): Promise<StoredEvent[]>
    counts(): Promise<Record<EventStatus, number>>
    /**
     * Run events again: the given keys (any status but processing; with `status`, only those in
     * it: `dead` to requeue, `done` to replay), or by default every dead letter.
     */
    requeue(keys?: readonly string[], options?: { status?: 'done' | 'dead' }): Promise<number>
    /** Delete events finished (done, or dead if asked) more than `olderThanMs` ago. */
    prune(options: { olderThanMs: number; status?: 'done' | 'dead' }): Promise<number>
  }
  readonly store: WebhookStore
}

/**
 * A receiver: the intake (intake/receive.ts) stores each delivery and acknowledges it; the host
 * (host.ts) runs the handlers on what was stored, here or in `runWorker`s, as it does for them.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { maxBodyBytes, retention } = checkOptions(options)
  const check = tokenCheck(options.token)
  const { redact, logger } = redactedLogging(check.secrets, options.logger)
  const store = options.store ?? sqliteStore('webhooks.sqlite')
  const orderKeyOf = orderKeys(options.orderBy, logger)
  const processing = options.processing
  const host = startHost({
    store,
    logger,
    redact,
    clock: options.clock,
    processing: processing ?? {},
    autoStart: processing !== false && processing?.autoStart !== false,
    strict: options.strict === true,
    keepAlive: false,
    // Called once processing runs, after `intake` below exists.
    ingestBusy: () => intake.receiving > 0,
    instrumentation: options.instrumentation,
    metrics: options.metrics,
    retention,
  })
  const intake = createIntake({
    check,
    maxBodyBytes,
    store,
    logger,
    redact,
    orderKeyOf,
    host,
    metrics: options.metrics,
  })
  const deliver = deliveryPath(intake, options)
  return {
    ...host.handlers,
    ...host.lifecycle,
    fetch: (request) => fetchEntry(deliver, request),
    receive: deliver,
    start: () => host.worker.start(),
    events: inspection(store, host.clock, host.worker),
    store,
  }
}

/** `receive`, measured and traced when asked; untraced and unmeasured, nothing wraps it (no async frame or closure more per request). */
function deliveryPath(
  intake: Intake,
  { instrumentation, metrics }: Pick<WebhookReceiverOptions, 'instrumentation' | 'metrics'>,
): (delivery: Delivery) => Promise<Receipt> {
  const counted = metrics
    ? async (delivery: Delivery): Promise<Receipt> => countDelivery(metrics, await receive(intake, delivery))
    : (delivery: Delivery): Promise<Receipt> => receive(intake, delivery)
  if (!instrumentation) return counted
  return (delivery) => traceDelivery(instrumentation, delivery, () => counted(delivery))
}

/** A delivery's outcome, counted (see `WebhookMetrics.delivery`). */
function countDelivery(metrics: WebhookMetrics, receipt: Receipt): Receipt {
  if (receipt.error) metrics.delivery('refused', receipt.error.code)
  else metrics.delivery(receipt.duplicate ? 'duplicate' : 'stored')
  return receipt
}

/** The largest `maxBodyBytes`: a body is read into one buffer. */
const MAX_BODY_LIMIT = 2 ** 31 - 1

/**
 * Checks what `tokenCheck`, `orderKeys` and the processing settings do not; returns
 * `maxBodyBytes` and `retention` with their defaults.
 */
function checkOptions(options: WebhookReceiverOptions): {
  maxBodyBytes: number
  retention: RetentionSettings | undefined
} {
  if (typeof options !== 'object' || options === null || !('token' in options)) {
    throw new ServiceValidationError('createWebhookReceiver options', [
      {
        path: 'token',
        message: 'required (see generateWebhookToken()), or `token: false` to turn the check off explicitly',
      },
    ])
  }
  const issues = new OptionIssues('createWebhookReceiver options')
  issues.number('maxBodyBytes', options.maxBodyBytes, { integer: true, min: 1, max: MAX_BODY_LIMIT })
  if (options.store !== undefined && typeof options.store?.insert !== 'function')
    issues.add('store', 'must be a store (sqliteStore(), postgresStore() or another WebhookStore)')
  checkHostOptions(issues, options)
  if (
    options.processing !== undefined &&
    options.processing !== false &&
    issues.object('processing', options.processing)
  )
    issues.boolean('processing.autoStart', options.processing.autoStart)
  const retention = retentionSettings(options.retention, issues)
  issues.throwIfAny()
  return { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, retention }
}

/** The Web-standard entry: Request in, Response out. */
async function fetchEntry(deliver: WebhookReceiver['receive'], request: Request): Promise<Response> {
  const receipt = await deliver({
    method: request.method,
    url: request.url,
    contentType: request.headers.get('content-type'),
    contentLength: request.headers.get('content-length'),
    body: request.body,
  })
  return new Response(receipt.body, { status: receipt.status, headers: receipt.headers })
}
/** `receiver.events`: inspection and replay of the store. */
function inspection(store: WebhookStore, clock: WorkerClock, worker: Worker): WebhookReceiver['events'] {
  return {
    get: (key) => store.get(key),
    async list(listOptions) {
      checkList(listOptions ?? {}, 'events.list options')
      return store.list(listOptions)
    },
    counts: () => store.counts(),
    async requeue(keys, options) {
      const issues = new OptionIssues('events.requeue keys')
      issues.strings('keys', keys)
      if (issues.object('options', options)) issues.oneOf('status', options?.status, ['done', 'dead'])
      issues.throwIfAny()
      const status = options?.status
      const n = await store.requeue(
        keys === undefined
          ? { now: clock.now() }
          : { keys, now: clock.now(), ...(status === undefined ? {} : { status }) },
      )
      if (n > 0) worker.wake()
      return n
    },
    async prune(pruneOptions) {
      const issues = new OptionIssues('events.prune options')
      if (issues.object('options', pruneOptions)) {
        if (pruneOptions.olderThanMs === undefined) issues.add('olderThanMs', 'is required (milliseconds)')
        issues.number('olderThanMs', pruneOptions.olderThanMs, { min: 0, max: Number.MAX_SAFE_INTEGER })
        issues.oneOf('status', pruneOptions.status, ['done', 'dead'])
      } else issues.add('options', 'required: { olderThanMs, status? }')
      issues.throwIfAny()
      const { olderThanMs, status } = pruneOptions
      return store.prune({
        before: Math.floor(clock.now() - olderThanMs),
        ...(status === undefined ? {} : { status }),
      })
    },
  }
}
