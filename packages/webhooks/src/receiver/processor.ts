import type { Logger } from '@service-sdk/core'
import { errorType, type Instrumentation, type Redactor } from '@service-sdk/core/internal'
import { describeError, storeUnavailable, type WebhookError, WebhookHandlerError } from '../errors.ts'
import { decodeBody } from '../events/decode.ts'
import type { KnownEventType, WebhookEvent, WebhookEventOf } from '../events/events.ts'
import { isKnownEventType, readWebhook } from '../events/parse.ts'
import { type SchemaWarning, type WarningLog, warningLog } from '../events/warnings.ts'
import type { ClaimedEvent, StoreTransaction, WebhookStore } from '../stores/store.ts'
import { secondsSince, type WebhookMetrics } from '../telemetry/metrics.ts'
import { traceProcessing } from '../telemetry/trace.ts'
import {
  createWorker,
  type ProcessingOptions,
  processingSettings,
  type RunEvent,
  type RunTools,
  type Worker,
  type WorkerClock,
} from '../worker/worker.ts'

export interface HandlerContext {
  /** The event's de-duplication key: its eventId, or `sha256:<hex>` of a folder callback's content. */
  key: string
  /** 1 on the first run; higher when retried, or after a crash interrupted an earlier run. */
  attempt: number
  /** When the receiver stored it (epoch ms). */
  receivedAt: number
  /**
   * Where the event differs from the schema this SDK knows (an enum value it does not know, a
   * field of another type than documented); empty when it does not. The event is delivered
   * anyway; the fields named here hold what was sent.
   */
  warnings: readonly SchemaWarning[]
  /**
   * PostgreSQL only: the transaction that marks this event done. Writes made through it commit
   * together with the done mark after every handler of the event succeeded, or not at all, so a
   * crash never makes them twice (exactly once). Opened on first call; every handler of the event
   * shares it. Other stores reject with `transaction_unavailable`.
   */
  transaction(): Promise<Pick<StoreTransaction, 'query'>>
}

export type WebhookHandler<E = WebhookEvent> = (event: E, context: HandlerContext) => void | Promise<void>

/**
 * Handlers by known event type, for `runWorker`; `'*'` runs for every event (like `onAny`). A key
 * that is not a known event type does not compile (`worker.onUnknown()` takes those).
 */
export type WebhookHandlers = { [T in KnownEventType]?: WebhookHandler<WebhookEventOf<T>> } & {
  '*'?: WebhookHandler
}

/** An event that reached the dead letters, as `onDeadLetter` handlers receive it (no body). */
export interface DeadLetter {
  key: string
  eventType: string
  /** Attempts made, the last included. */
  attempts: number
  receivedAt: number
  orderKey: string | null
  /** Why the last attempt failed: one line, secrets removed (as stored in `lastError`). */
  lastError: string
}

/** Called once for each event moved to the dead letters (after its outcome was requested). */
export type DeadLetterHandler = (deadLetter: DeadLetter, error: WebhookHandlerError) => void | Promise<void>

export interface Processor {
  on(eventType: string | readonly string[], handler: WebhookHandler<never>): void
  onAny(handler: WebhookHandler): void
  onError(handler: (error: WebhookError) => void | Promise<void>): void
  onDeadLetter(handler: DeadLetterHandler): void
  /** Hands an error to the onError handlers, its text redacted. */
  reportError(error: WebhookError): void
  readonly worker: Worker
}

/** What `createProcessor` is given. */
export interface ProcessorInit {
  store: WebhookStore
  processing: ProcessingOptions
  clock: WorkerClock
  logger: Logger
  redact: Redactor
  /** Dead-letter events that differ from the known schema instead of warning (see `strict`). */
  strict: boolean
  /** Whether requests are being received right now (the worker yields to them). */
  ingestBusy?: () => boolean
  /** Keep the process alive while processing (a worker process); default false. */
  keepAlive?: boolean
  instrumentation?: Instrumentation | undefined
  metrics?: WebhookMetrics | undefined
}

/** The registered handlers and what reports to them; passed to the functions below. */
interface Handlers {
  readonly logger: Logger
  readonly redact: Redactor
  readonly strict: boolean
  readonly byType: Map<string, WebhookHandler<never>[]>
  readonly any: WebhookHandler[]
  readonly onError: Array<(error: WebhookError) => void | Promise<void>>
  readonly onDeadLetter: DeadLetterHandler[]
  /** Event types already warned about for having no handler. */
  readonly warnedNoHandler: Set<string>
  readonly logWarnings: WarningLog
}

/** The handlers, the worker that runs them, and the error reports: shared by receivers and `runWorker`. */
export function createProcessor(init: ProcessorInit): Processor {
  const { logger, redact } = init
  const h: Handlers = {
    logger,
    redact,
    strict: init.strict,
    byType: new Map(),
    any: [],
    onError: [],
    onDeadLetter: [],
    warnedNoHandler: new Set(),
    logWarnings: warningLog(logger.warn),
  }
  const traced = traceProcessing(init.instrumentation, (event, tools, body) =>
    runEvent(h, event, tools, body),
  )
  const { metrics } = init
  const worker = createWorker({
    store: init.store,
    run: metrics ? measured(metrics, traced.run) : traced.run,
    settings: processingSettings(init.processing),
    clock: init.clock,
    logger,
    errorLine: (error) => errorLine(h, error),
    ...(init.ingestBusy ? { ingestBusy: init.ingestBusy } : {}),
    keepAlive: init.keepAlive ?? false,
    onFailure(event, error, retryAt) {
      traced.failed(event, error, retryAt)
      if (event) metrics?.settled(event.eventType, retryAt === undefined ? 'dead' : 'retry')
      reportFailure(h, event, error, retryAt)
    },
  })
  return {
    on: (eventType, handler) => register(h, eventType, handler),
    onAny: (handler) => void h.any.push(handler),
    onError: (handler) => void h.onError.push(handler),
    onDeadLetter: (handler) => void h.onDeadLetter.push(handler),
    reportError: (error) => reportError(h, error),
    worker,
  }
}

function register(h: Handlers, eventType: string | readonly string[], handler: WebhookHandler<never>): void {
  for (const type of typeof eventType === 'string' ? [eventType] : eventType) {
    if (!isKnownEventType(type)) {
      // Allowed (the service may add types), but most often a typo: say so once, at startup.
      h.logger.warn('webhooks: a handler was registered for an event type this SDK does not know', {
        eventType: type,
      })
    }
    const list = h.byType.get(type) ?? []
    list.push(handler)
    h.byType.set(type, list)
  }
}

/** One line for `lastError` and logs, secrets removed. */
function errorLine(h: Handlers, error: unknown): string {
  return h.redact(describeError(error)).slice(0, 2000)
}

function reportError(h: Handlers, error: WebhookError): void {
  for (const handler of h.onError) {
    try {
      Promise.resolve(handler(error)).catch((e) =>
        h.logger.error('webhooks: an onError handler failed', { error: describeError(e) }),
      )
    } catch (e) {
      h.logger.error('webhooks: an onError handler failed', { error: describeError(e) })
    }
  }
}

/** A failed attempt (or, without an event, a store failure): logged and handed to `onError`. */
function reportFailure(
  h: Handlers,
  event: ClaimedEvent | undefined,
  error: unknown,
  retryAt: number | undefined,
) {
  if (!event) {
    reportError(h, storeUnavailable('The store failed', error, h.redact))
    return
  }
  const failure = new WebhookHandlerError({
    key: event.key,
    eventType: event.eventType,
    attempt: event.attempts,
    retryAt,
    cause: error,
    reason: errorLine(h, error),
  })
  const log = retryAt === undefined ? h.logger.error : h.logger.warn
  log(`webhooks: ${h.redact(failure.message)}`, {
    key: event.key,
    eventType: event.eventType,
    attempt: event.attempts,
  })
  reportError(h, failure)
  if (retryAt === undefined) reportDeadLetter(h, event, failure, error)
}

function reportDeadLetter(
  h: Handlers,
  event: ClaimedEvent,
  failure: WebhookHandlerError,
  error: unknown,
): void {
  const deadLetter: DeadLetter = {
    key: event.key,
    eventType: event.eventType,
    attempts: event.attempts,
    receivedAt: event.receivedAt,
    orderKey: event.orderKey,
    lastError: errorLine(h, error),
  }
  for (const handler of h.onDeadLetter) {
    const failed = (e: unknown) =>
      h.logger.error('webhooks: an onDeadLetter handler failed', { error: errorLine(h, e) })
    try {
      Promise.resolve(handler(deadLetter, failure)).catch(failed)
    } catch (e) {
      failed(e)
    }
  }
}

/** The run timed: each attempt's duration, and the events whose handlers all succeeded. */
function measured(metrics: WebhookMetrics, run: RunEvent): RunEvent {
  return async (event, tools, body) => {
    const start = performance.now()
    try {
      await run(event, tools, body)
    } catch (error) {
      metrics.handled(event.eventType, secondsSince(start), errorType(error))
      throw error
    }
    metrics.handled(event.eventType, secondsSince(start))
    metrics.settled(event.eventType, 'done')
  }
}

/**
 * Types the body (parsed from the stored text, unless the receiver's admission parse is at hand),
 * then runs every handler for its type and every `onAny` one.
 */
async function runEvent(
  h: Handlers,
  stored: ClaimedEvent,
  tools: RunTools,
  body: Record<string, unknown> | undefined,
): Promise<void> {
  const { event, warnings } = readWebhook(body ?? decodeBody(stored.body), {
    strict: h.strict,
    receivedAt: stored.receivedAt,
  })
  if (warnings.length > 0) h.logWarnings(event.eventType, stored.key, warnings)
  const list = [...(h.byType.get(event.eventType) ?? []), ...h.any] as WebhookHandler[]
  if (list.length === 0) {
    if (!h.warnedNoHandler.has(event.eventType)) {
      h.warnedNoHandler.add(event.eventType)
      h.logger.warn('webhooks: no handler for an event type; its events are marked done', {
        eventType: event.eventType,
      })
    }
    return
  }
  const context: HandlerContext = {
    key: stored.key,
    attempt: stored.attempts,
    receivedAt: stored.receivedAt,
    warnings,
    transaction: tools.transaction,
  }
  // One handler (an onAny alone, often): what it throws is what the list below would throw.
  if (list.length === 1) return await list[0]!(event, context)
  // Handlers run side by side; if one fails the event is retried, and every handler runs again.
  const results = await Promise.allSettled(list.map(async (handler) => handler(event, context)))
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
  if (errors.length === 1) throw errors[0]
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} handlers failed`)
}
