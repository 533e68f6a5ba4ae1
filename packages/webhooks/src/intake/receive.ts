import type { Logger } from '@service-sdk/core'
import type { Redactor } from '@service-sdk/core/internal'
import { storeUnavailable, WebhookError } from '../errors.ts'
import { bodyText } from '../events/decode.ts'
import type { NewEvent, WebhookStore } from '../stores/store.ts'
import { secondsSince, type WebhookMetrics } from '../telemetry/metrics.ts'
import { throttledWarning } from '../telemetry/throttled-warning.ts'
import type { Worker, WorkerClock } from '../worker/worker.ts'
import { type Admitted, admit } from './admit.ts'
import { cappedWhole, isJsonContentType, readCapped } from './body.ts'
import type { Delivery, Receipt } from './delivery.ts'
import type { OrderKeyOf } from './order-key.ts'
import { acknowledged, refusal } from './receipt.ts'
import { lastPathSegment, type TokenCheck } from './token.ts'

/** What the receive path needs: a receiver's intake, passed to the functions below. */
export interface Intake {
  readonly check: TokenCheck
  readonly maxBodyBytes: number
  readonly store: WebhookStore
  /** Store commit latency, when the receiver is measured. */
  readonly metrics?: WebhookMetrics | undefined
  readonly clock: WorkerClock
  readonly logger: Logger
  readonly redact: Redactor
  readonly orderKeyOf: OrderKeyOf | undefined
  readonly worker: Worker
  readonly reportError: (error: WebhookError) => void
  readonly warnUnknownToken: () => void
  /** Says once that a delivery came with a Content-Type other than JSON's (it was read anyway). */
  readonly noteContentType: (contentType: string | null | undefined) => void
  /** Requests being received now: processing yields to them when the event loop is saturated. */
  receiving: number
}

/** What a receiver's intake is made of. */
export interface IntakeInit {
  check: TokenCheck
  maxBodyBytes: number
  store: WebhookStore
  logger: Logger
  redact: Redactor
  orderKeyOf: OrderKeyOf | undefined
  /** Where processing runs: its clock, its worker (woken, or handed each arrival), its `onError`. */
  host: {
    readonly clock: WorkerClock
    readonly worker: Worker
    readonly reportError: (error: WebhookError) => void
  }
  metrics: WebhookMetrics | undefined
}

/** A receiver's intake, nothing received yet. */
export function createIntake({ host, ...init }: IntakeInit): Intake {
  const { logger } = init
  return {
    ...init,
    clock: host.clock,
    worker: host.worker,
    reportError: host.reportError,
    warnUnknownToken: throttledWarning(
      logger,
      (n) => `webhooks: refused ${n} request(s) with an unknown token (404) in the last minute`,
    ),
    noteContentType: once((contentType) =>
      logger.info(
        `webhooks: a delivery came with Content-Type ${JSON.stringify(contentType ?? null)}; its body is a JSON object, so it was stored (said once)`,
      ),
    ),
    receiving: 0,
  }
}

/** `f` on its first call only. */
function once<A extends unknown[]>(f: (...args: A) => void): (...args: A) => void {
  let done = false
  return (...args) => {
    if (done) return
    done = true
    f(...args)
  }
}

/** A delivery's way in: token, method, media type, body, admission, store; then the answer. */
export async function receive(intake: Intake, delivery: Delivery): Promise<Receipt> {
  intake.receiving++
  try {
    const refused = checkRequest(intake, delivery)
    if (refused) return refused
    const read = await readAndAdmit(intake, delivery)
    return 'status' in read ? read : await storeEvent(intake, read.text, read.admitted)
  } finally {
    intake.receiving--
  }
}

/** What can be refused before reading the body. */
function checkRequest(intake: Intake, delivery: Delivery): Receipt | undefined {
  if (!intake.check(lastPathSegment(delivery.url))) {
    intake.warnUnknownToken()
    return refusal(new WebhookError('Unknown receiver token.', { code: 'invalid_token', status: 404 }))
  }
  if (delivery.method !== 'POST') {
    return refusal(new WebhookError('Only POST is accepted.', { code: 'method_not_allowed', status: 405 }))
  }
  // Not the Content-Type: a body is refused for what it is, never for what a header says it is.
  return undefined
}

/** The body, read under the cap and admitted (JSON, an event, its key); or the refusal. */
async function readAndAdmit(
  intake: Intake,
  delivery: Delivery,
): Promise<{ text: string; admitted: Admitted } | Receipt> {
  try {
    const { body } = delivery
    const raw =
      typeof body === 'string' || body instanceof Uint8Array
        ? cappedWhole(body, intake.maxBodyBytes)
        : await readCapped(body, intake.maxBodyBytes, delivery.contentLength)
    const text = typeof raw === 'string' ? raw : bodyText(raw)
    // Only processing here reads the parsed body, and only of an event it takes as it arrives;
    // one it claims later is parsed from the stored text then.
    const admitted = admit(text, intake.worker.wouldTakeArrival())
    if (!isJsonContentType(delivery.contentType)) intake.noteContentType(delivery.contentType)
    return { text, admitted }
  } catch (error) {
    if (!WebhookError.isInstance(error)) throw error
    const line = `webhooks: refused a delivery (${error.status} ${error.code}): ${error.message}`
    // The sender went away: routine, and nobody awaits the answer. Too large: the sender's event
    // will not get in until the cap is raised.
    if (error.code === 'request_aborted') intake.logger.debug(line)
    else if (error.code === 'payload_too_large') intake.logger.error(line)
    else intake.logger.warn(line)
    return refusal(error)
  }
}

/** Stores the event durably, then acknowledges it; a store failure is answered 503 (the sender retries). */
async function storeEvent(
  intake: Intake,
  text: string,
  { key, eventType, body }: Admitted,
): Promise<Receipt> {
  const { logger } = intake
  const receivedAt = intake.clock.now()
  const orderKey = intake.orderKeyOf?.(text, receivedAt) ?? null
  // The worker here may take it at once, stored already leased to it (never with an order key:
  // its turn is for the claim to decide).
  const arrival = orderKey === null ? intake.worker.arrival() : undefined
  const event: NewEvent = {
    key,
    eventType,
    body: text,
    receivedAt,
    ...(orderKey === null ? {} : { orderKey }),
    ...(arrival ? { lease: arrival.lease } : {}),
  }
  let outcome: 'inserted' | 'duplicate'
  const started = intake.metrics ? performance.now() : 0
  try {
    outcome = await intake.store.insert(event)
    intake.metrics?.storeCommit(secondsSince(started), outcome)
  } catch (cause) {
    intake.metrics?.storeCommit(secondsSince(started), 'failed')
    arrival?.cancel()
    const error = storeUnavailable(
      'The event could not be stored, so it was not acknowledged',
      cause,
      intake.redact,
      503,
    )
    logger.error(`webhooks: ${error.message}`, { key, eventType })
    intake.reportError(error)
    return refusal(error)
  }
  if (outcome === 'inserted') {
    logger.debug('webhooks: stored an event', { key, eventType })
    if (arrival) arrival.stored(event, body)
    else intake.worker.wake()
    return acknowledged(key, eventType, false)
  }
  arrival?.cancel()
  logger.debug('webhooks: acknowledged a duplicate', { key, eventType })
  return acknowledged(key, eventType, true)
}
