import type { Logger } from '@service-sdk/core'
import { createRedactor, redactingLogger } from '@service-sdk/core/internal'
import { type Admitted, admit } from './admit.ts'
import { DEFAULT_MAX_BODY_BYTES, isJsonContentType, readCapped } from './body.ts'
import { bodyText } from './decode.ts'
import { WebhookError } from './errors.ts'
import type { KnownEventType, UnknownWebhookEvent, WebhookEventOf } from './events.ts'
import { type OrderBy, orderKeys } from './order-key.ts'
import { createProcessor, storeUnavailable, type WebhookHandler } from './processor.ts'
import { type Readiness, readiness } from './readiness.ts'
import type { EventStatus, ListOptions, StoredEvent, WebhookStore } from './store.ts'
import { sqliteStore } from './stores/sqlite.ts'
import { lastPathSegment, tokenCheck } from './token.ts'
import type { ProcessingOptions, WorkerClock } from './worker.ts'

export type { HandlerContext, WebhookHandler } from './processor.ts'

export interface WebhookReceiverOptions {
  /**
   * The capability token: the last path segment of the URL you subscribe
   * (`https://example.com/webhooks/<token>`). Several tokens are all accepted (rotation).
   * `false` turns the check off; only do that when something else authenticates the sender.
   */
  token: string | readonly string[] | false
  /** Where events wait to be processed. Default `sqliteStore('webhooks.sqlite')` (in the working directory). */
  store?: WebhookStore
  /** Larger bodies are refused with 413 without being read to the end. Default 1 MiB. */
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
  /** For tests: the time and randomness the worker uses. */
  clock?: WorkerClock
}

/** A delivery as any HTTP framework can describe it; what the adapters pass to `receive()`. */
export interface Delivery {
  method: string
  /** The request URL or path; its last segment is the token. Never logged. */
  url: string
  contentType: string | null | undefined
  contentLength?: string | null | undefined
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Uint8Array | string | null
}

/** The answer to a delivery. */
export interface Receipt {
  status: number
  headers: Record<string, string>
  body: string
  /** The stored event's key, when the delivery was stored (or was a duplicate). */
  key?: string
  duplicate?: boolean
  error?: WebhookError
}

export interface WebhookReceiver {
  on<T extends KnownEventType>(eventType: T | readonly T[], handler: WebhookHandler<WebhookEventOf<T>>): void
  /** An eventType this SDK does not know yet. */
  on(eventType: string, handler: WebhookHandler<UnknownWebhookEvent>): void
  /** Every event, after the handlers for its type have been started. */
  onAny(handler: WebhookHandler): void
  /** Handler failures (each attempt), dead letters, and store failures. Never throws into the receiver. */
  onError(handler: (error: WebhookError) => void | Promise<void>): void
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
  /** Inspection and replay. */
  readonly events: {
    get(key: string): Promise<StoredEvent | undefined>
    list(options?: ListOptions): Promise<StoredEvent[]>
    counts(): Promise<Record<EventStatus, number>>
    /** Run events again: the given keys (any status but processing), or by default every dead letter. */
    requeue(keys?: readonly string[]): Promise<number>
    /** Delete events finished (done, or dead if asked) more than `olderThanMs` ago. */
    prune(options: { olderThanMs: number; status?: 'done' | 'dead' }): Promise<number>
  }
  readonly store: WebhookStore
}

const JSON_HEADERS = { 'content-type': 'application/json' }
const ACK = JSON.stringify({ received: true })
const ACK_DUPLICATE = JSON.stringify({ received: true, duplicate: true })

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  if (typeof options !== 'object' || options === null || !('token' in options)) {
    throw new WebhookError(
      'createWebhookReceiver needs `token` (see generateWebhookToken()), or `token: false` to turn the check off explicitly.',
      { code: 'invalid_options' },
    )
  }
  const check = tokenCheck(options.token)
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new WebhookError('maxBodyBytes must be a positive integer.', { code: 'invalid_options' })
  }
  const redact = createRedactor(check.secrets)
  const logger = redactingLogger(options.logger, redact)
  const clock = options.clock ?? { now: Date.now, random: Math.random }
  const store = options.store ?? sqliteStore('webhooks.sqlite')
  const orderKeyOf = orderKeys(options.orderBy, logger)

  // Requests being received now: processing yields to them when the event loop is saturated.
  let receiving = 0
  const processing = options.processing === false ? undefined : options.processing
  const processor = createProcessor({
    store,
    processing: processing ?? {},
    clock,
    logger,
    redact,
    strict: options.strict === true,
    ingestBusy: () => receiving > 0,
  })
  const { worker, reportError } = processor
  const warnUnknownToken = throttledWarning(
    logger,
    (n) => `webhooks: refused ${n} request(s) with an unknown token (404) in the last minute`,
  )

  function refuse(error: WebhookError): Receipt {
    const status = error.status ?? 400
    // A wrong token looks exactly like a URL that does not exist.
    if (status === 404) return { status, headers: { 'content-type': 'text/plain' }, body: 'Not Found', error }
    const headers: Record<string, string> = { ...JSON_HEADERS }
    if (status === 405) headers.allow = 'POST'
    if (status === 503) headers['retry-after'] = '1'
    if (status === 413) headers.connection = 'close'
    return { status, headers, body: JSON.stringify({ error: error.code, message: error.message }), error }
  }

  async function receive(delivery: Delivery): Promise<Receipt> {
    receiving++
    try {
      return await admitAndStore(delivery)
    } finally {
      receiving--
    }
  }

  async function admitAndStore(delivery: Delivery): Promise<Receipt> {
    if (!check(lastPathSegment(delivery.url))) {
      warnUnknownToken()
      return refuse(new WebhookError('Unknown receiver token.', { code: 'invalid_token', status: 404 }))
    }
    if (delivery.method !== 'POST') {
      return refuse(new WebhookError('Only POST is accepted.', { code: 'method_not_allowed', status: 405 }))
    }
    if (!isJsonContentType(delivery.contentType)) {
      return refuse(
        new WebhookError('The body must be JSON (Content-Type: application/json).', {
          code: 'unsupported_media_type',
          status: 415,
        }),
      )
    }
    let text: string
    let admitted: Admitted
    try {
      const { body } = delivery
      const raw =
        typeof body === 'string' || body instanceof Uint8Array
          ? capped(body, maxBodyBytes)
          : await readCapped(body, maxBodyBytes, delivery.contentLength)
      text = typeof raw === 'string' ? raw : bodyText(raw)
      admitted = admit(text)
    } catch (error) {
      if (!WebhookError.isInstance(error)) throw error
      logger.warn(`webhooks: refused a delivery (${error.status}): ${error.message}`)
      return refuse(error)
    }
    const { key, eventType } = admitted
    const receivedAt = clock.now()
    const orderKey = orderKeyOf?.(text, receivedAt) ?? null
    let outcome: 'inserted' | 'duplicate'
    try {
      outcome = await store.insert({
        key,
        eventType,
        body: text,
        receivedAt,
        ...(orderKey === null ? {} : { orderKey }),
      })
    } catch (cause) {
      const error = storeUnavailable(
        'The event could not be stored, so it was not acknowledged',
        cause,
        redact,
        503,
      )
      logger.error(`webhooks: ${error.message}`, { key, eventType })
      reportError(error)
      return refuse(error)
    }
    if (outcome === 'inserted') {
      logger.debug('webhooks: stored an event', { key, eventType })
      worker.wake()
      return { status: 200, headers: JSON_HEADERS, body: ACK, key, duplicate: false }
    }
    logger.debug('webhooks: acknowledged a duplicate', { key, eventType })
    return { status: 200, headers: JSON_HEADERS, body: ACK_DUPLICATE, key, duplicate: true }
  }

  // Next turn: the `on()` calls right after createWebhookReceiver() are registered by then.
  const autoStart =
    processing === undefined && options.processing === false
      ? undefined
      : processing?.autoStart === false
        ? undefined
        : setImmediate(() => worker.start())

  const receiver: WebhookReceiver = {
    on: processor.on,
    onAny: processor.onAny,
    onError: processor.onError,
    async fetch(request) {
      const receipt = await receive({
        method: request.method,
        url: request.url,
        contentType: request.headers.get('content-type'),
        contentLength: request.headers.get('content-length'),
        body: request.body,
      })
      return new Response(receipt.body, { status: receipt.status, headers: receipt.headers })
    },
    receive,
    start: () => worker.start(),
    stop() {
      clearImmediate(autoStart)
      return worker.stop()
    },
    drain: () => worker.drain(),
    async close() {
      clearImmediate(autoStart)
      await worker.stop()
      await store.close()
    },
    readiness: () => readiness(store, redact),
    events: {
      get: (key) => store.get(key),
      list: (listOptions) => store.list(listOptions),
      counts: () => store.counts(),
      async requeue(keys) {
        const n = await store.requeue(keys === undefined ? { now: clock.now() } : { keys, now: clock.now() })
        if (n > 0) worker.wake()
        return n
      },
      prune: ({ olderThanMs, status }) =>
        store.prune({ before: clock.now() - olderThanMs, ...(status === undefined ? {} : { status }) }),
    },
    store,
  }

  return receiver
}

/** A warning logged at most once a minute, saying how many times it happened meanwhile. */
function throttledWarning(logger: Logger, message: (count: number) => string): () => void {
  let count = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  return () => {
    count++
    if (timer) return
    logger.warn(message(count))
    count = 0
    timer = setTimeout(() => {
      timer = undefined
      if (count > 0) logger.warn(message(count))
      count = 0
    }, 60_000)
    timer.unref?.()
  }
}

function capped(body: string | Uint8Array, maxBytes: number): string | Buffer {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
  if (size > maxBytes)
    throw new WebhookError(`The body exceeds ${maxBytes} bytes.`, { code: 'payload_too_large', status: 413 })
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
}
