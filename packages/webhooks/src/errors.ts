import { ServiceError, type ServiceErrorJSON } from '@service-sdk/core'
import type { Redactor } from '@service-sdk/core/internal'

/**
 * Why a delivery or an event was refused or failed:
 * - `invalid_token`: the URL's last segment is not a current token (answered 404).
 * - `payload_too_large` (413), `malformed_json` (400), `invalid_payload` (400 at the door; at
 *   processing time, the event is dead-lettered). `unsupported_media_type` is no longer produced
 *   (a body is never refused for its Content-Type); it stays so that code naming it compiles.
 * - `store_unavailable`: the event could not be stored (answered 503, so the sender retries).
 * - `handler_failed`: a handler threw; see `WebhookHandlerError`.
 * - `transaction_unavailable`: `context.transaction()` on a store without transactions, or a
 *   query on a transaction that has ended.
 * - `body_consumed`: a body parser read the request before the receiver (answered 500).
 * - `unsupported_runtime`: what a store needs is missing (`node:sqlite` on an older Node, the
 *   `pg` package).
 * - `request_aborted`: the sender closed the connection before the body ended (logged at debug;
 *   nobody awaits the answer).
 *
 * Bad options are not a `WebhookError`: they throw core's `ServiceValidationError` (code
 * `validation_error`, with `issues`), before anything is opened.
 */
export type WebhookErrorCode =
  | 'invalid_token'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'malformed_json'
  | 'invalid_payload'
  | 'store_unavailable'
  | 'handler_failed'
  | 'transaction_unavailable'
  | 'body_consumed'
  | 'unsupported_runtime'
  | 'request_aborted'

/** Errors of the webhook receiver; part of core's hierarchy, so `ServiceError.isInstance` holds. */
export class WebhookError extends ServiceError {
  static override readonly kind: string = 'WebhookError'
  declare readonly code: WebhookErrorCode
  /** The HTTP status the receiver answers with, for errors raised while receiving. */
  readonly status: number | undefined

  constructor(
    message: string,
    options: { code: WebhookErrorCode; status?: number; isRetryable?: boolean; cause?: unknown },
  ) {
    super(message, { code: options.code, isRetryable: options.isRetryable ?? false, cause: options.cause })
    this.status = options.status
  }

  override toJSON(): ServiceErrorJSON {
    return { ...super.toJSON(), status: this.status }
  }
}

export interface WebhookHandlerErrorInit {
  key: string
  eventType: string
  attempt: number
  /** When the event runs again, or `undefined` when it was moved to the dead letters. */
  retryAt: number | undefined
  cause: unknown
  /** What went wrong, one line, secrets removed (default: the cause's message). */
  reason?: string
}

/** A handler failed on an event; passed to `onError`. The event is retried or dead-lettered. */
export class WebhookHandlerError extends WebhookError {
  static override readonly kind: string = 'WebhookHandlerError'
  /** The event's de-duplication key (its eventId, or a content hash for the folder callback). */
  readonly key: string
  readonly eventType: string
  /** 1 for the first run. */
  readonly attempt: number
  readonly retryAt: number | undefined
  /** True when the event was moved to the dead letters and will not run again unless re-queued. */
  readonly deadLettered: boolean

  constructor(init: WebhookHandlerErrorInit) {
    const what = `Handler failed on ${init.eventType} event ${init.key} (attempt ${init.attempt})`
    const next =
      init.retryAt === undefined
        ? 'moved to the dead letters; fix the handler, then re-queue it with receiver.events.requeue()'
        : 'it will be retried'
    super(`${what}: ${init.reason ?? describeError(init.cause)}; ${next}.`, {
      code: 'handler_failed',
      isRetryable: init.retryAt !== undefined,
      cause: init.cause,
    })
    this.key = init.key
    this.eventType = init.eventType
    this.attempt = init.attempt
    this.retryAt = init.retryAt
    this.deadLettered = init.retryAt === undefined
  }

  override toJSON(): ServiceErrorJSON {
    return {
      ...super.toJSON(),
      key: this.key,
      eventType: this.eventType,
      attempt: this.attempt,
      retryAt: this.retryAt,
      deadLettered: this.deadLettered,
    }
  }
}

/** A one-line description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(describeError).join('; ')
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return String(error)
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
