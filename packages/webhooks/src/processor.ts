import type { Logger } from '@service-sdk/core'
import type { Redactor } from '@service-sdk/core/internal'
import { decodeBody } from './decode.ts'
import { describeError, WebhookError, WebhookHandlerError } from './errors.ts'
import type { KnownEventType, WebhookEvent, WebhookEventOf } from './events.ts'
import { isKnownEventType, readWebhook } from './parse.ts'
import type { ClaimedEvent, StoreTransaction, WebhookStore } from './store.ts'
import { type SchemaWarning, warningLog } from './warnings.ts'
import {
  createWorker,
  type ProcessingOptions,
  type RunTools,
  type Worker,
  type WorkerClock,
} from './worker.ts'

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
   * shares it. Other stores reject with `invalid_options`.
   */
  transaction(): Promise<Pick<StoreTransaction, 'query'>>
}

export type WebhookHandler<E = WebhookEvent> = (event: E, context: HandlerContext) => void | Promise<void>

/** Handlers by event type, for `runWorker`; `'*'` runs for every event (like `onAny`). */
export type WebhookHandlers = { [T in KnownEventType]?: WebhookHandler<WebhookEventOf<T>> } & {
  '*'?: WebhookHandler
} & Record<string, WebhookHandler<never> | undefined>

export interface Processor {
  on(eventType: string | readonly string[], handler: WebhookHandler<never>): void
  onAny(handler: WebhookHandler): void
  onError(handler: (error: WebhookError) => void | Promise<void>): void
  /** Hands an error to the onError handlers, its text redacted. */
  reportError(error: WebhookError): void
  readonly worker: Worker
}

/** The handlers, the worker that runs them, and the error reports: shared by receivers and `runWorker`. */
export function createProcessor(init: {
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
}): Processor {
  const { logger, redact } = init
  const errorLine = (error: unknown): string => redact(describeError(error)).slice(0, 2000)
  const handlers = new Map<string, WebhookHandler<never>[]>()
  const anyHandlers: WebhookHandler[] = []
  const errorHandlers: Array<(error: WebhookError) => void | Promise<void>> = []
  const warnedNoHandler = new Set<string>()
  const logWarnings = warningLog(logger.warn)

  function reportError(error: WebhookError): void {
    for (const handler of errorHandlers) {
      try {
        Promise.resolve(handler(error)).catch((e) =>
          logger.error('webhooks: an onError handler failed', { error: describeError(e) }),
        )
      } catch (e) {
        logger.error('webhooks: an onError handler failed', { error: describeError(e) })
      }
    }
  }

  async function runEvent(stored: ClaimedEvent, tools: RunTools): Promise<void> {
    const { event, warnings } = readWebhook(decodeBody(stored.body), {
      strict: init.strict,
      receivedAt: stored.receivedAt,
    })
    if (warnings.length > 0) logWarnings(event.eventType, stored.key, warnings)
    const list = [...(handlers.get(event.eventType) ?? []), ...anyHandlers] as WebhookHandler[]
    if (list.length === 0) {
      if (!warnedNoHandler.has(event.eventType)) {
        warnedNoHandler.add(event.eventType)
        logger.warn('webhooks: no handler for an event type; its events are marked done', {
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
    // Handlers run side by side; if one fails the event is retried, and every handler runs again.
    const results = await Promise.allSettled(list.map(async (handler) => handler(event, context)))
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} handlers failed`)
  }

  const worker = createWorker({
    store: init.store,
    run: runEvent,
    options: init.processing,
    clock: init.clock,
    logger,
    errorLine,
    ...(init.ingestBusy ? { ingestBusy: init.ingestBusy } : {}),
    keepAlive: init.keepAlive ?? false,
    onFailure(event, error, retryAt) {
      if (!event) {
        reportError(storeUnavailable('The store failed', error, redact))
        return
      }
      const failure = new WebhookHandlerError({
        key: event.key,
        eventType: event.eventType,
        attempt: event.attempts,
        retryAt,
        cause: error,
        reason: errorLine(error),
      })
      const log = retryAt === undefined ? logger.error : logger.warn
      log(`webhooks: ${redact(failure.message)}`, {
        key: event.key,
        eventType: event.eventType,
        attempt: event.attempts,
      })
      reportError(failure)
    },
  })

  return {
    on(eventType, handler) {
      for (const type of typeof eventType === 'string' ? [eventType] : eventType) {
        if (!isKnownEventType(type)) {
          // Allowed (the service may add types), but most often a typo: say so once, at startup.
          logger.warn('webhooks: a handler was registered for an event type this SDK does not know', {
            eventType: type,
          })
        }
        const list = handlers.get(type) ?? []
        list.push(handler)
        handlers.set(type, list)
      }
    },
    onAny(handler) {
      anyHandlers.push(handler)
    },
    onError(handler) {
      errorHandlers.push(handler)
    },
    reportError,
    worker,
  }
}

/**
 * A store failure as handed to `onError` and logs: its text redacted, and the original error not
 * attached (its message, stack and causes may carry what the redactor removed).
 */
export function storeUnavailable(
  what: string,
  cause: unknown,
  redact: Redactor,
  status?: number,
): WebhookError {
  return new WebhookError(redact(`${what}: ${describeError(cause)}`), {
    code: 'store_unavailable',
    isRetryable: true,
    ...(status === undefined ? {} : { status }),
  })
}
