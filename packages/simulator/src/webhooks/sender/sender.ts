import type { Logger } from '@service-sdk/core'
import { backoffDelay, sleep, stringifyJson } from '@service-sdk/core/internal'
import type { DeliveryHandler } from '../../testing/deliver.ts'
import { originOf, sendAttempt } from './delivery-attempt.ts'
import { derange, varyFolderBody } from './delivery-faults.ts'
import {
  type DeliveryFaults,
  defaultSettings,
  type SenderUpdate,
  type Settings,
  type WebhookSenderOptions,
  withUpdate,
} from './sender-settings.ts'

export type { DeliveryFaults, SenderUpdate, WebhookSenderOptions } from './sender-settings.ts'

export interface Delivery {
  id: string
  url: string
  kind: 'folder' | 'asset'
  eventType: string
  eventId?: string
  /** The body as sent (after faults that vary it); bigint values go out as raw JSON integers. */
  body: unknown
  attempts: number
  state: 'pending' | 'delivered' | 'failed'
  lastStatus?: number
  lastError?: string
  /** Set on the extra copy sent by the duplicate fault: the id of the delivery it repeats. */
  duplicateOf?: string
}

/** A delivery to make: where, what kind, and the body (serialized once, losslessly). */
export interface Enqueued {
  url: string
  kind: 'folder' | 'asset'
  eventType: string
  eventId?: string
  body: unknown
}

export interface WebhookSender {
  enqueue(delivery: Enqueued): void
  /** Deliveries so far, oldest first, as copies: the most recent 10 000 and every pending one. */
  deliveries(): readonly Delivery[]
  configure(options: SenderUpdate): void
  /** Resolves when nothing is pending or in flight (or the sender is stopped). */
  idle(): Promise<void>
  /** Cancel timers and in-flight attempts; pending deliveries stay pending. */
  stop(): void
  /** Forget every delivery (pending ones are dropped) and go back to the options it started with. */
  reset(): void
  /**
   * Deliver to a function instead of over HTTP (e.g. a webhook receiver's `fetch`): every delivery
   * whose URL starts with `prefix` (all of them without one), with the same retries and faults.
   * Returns a function that removes the route.
   */
  deliverTo(handler: DeliveryHandler, prefix?: string): () => void
}

/** Held deliveries go out after this long without a new one, so a short batch is not held forever. */
const REORDER_QUIET_MS = 25
/** Settled deliveries kept for inspection; older ones are forgotten so a long-running simulator stays small. */
const HISTORY = 10_000

interface Entry {
  delivery: Delivery
  /** Serialized once, so retries and duplicates send the same bytes. */
  text: string
}

/**
 * Asynchronous at-least-once delivery: POST with a per-attempt timeout; any non-2xx, timeout or
 * connection error is retried with the SDK's backoff (core's `backoffDelay`: doubling, jittered)
 * until `retry.maxRetries` is spent, then marked failed. One attempt in flight per URL, so a
 * receiver sees deliveries in queue order unless a fault or a retry reorders them; a retry waits
 * outside its lane, so one failing event does not hold back later ones.
 */
class Sender implements WebhookSender {
  readonly #initial: Settings
  readonly #logger: Logger
  readonly #random: () => number
  #settings: Settings
  readonly #records: Delivery[] = []
  /** Queued entries per URL; a URL is present while its lane is busy. */
  readonly #lanes = new Map<string, Entry[]>()
  readonly #routes: Array<{ prefix: string; handler: DeliveryHandler }> = []
  /** Aborted by stop() and reset(): in-flight attempts and retry pauses of that time end. */
  #halt = new AbortController()
  #held: Entry[] = []
  #holdTimer: ReturnType<typeof setTimeout> | undefined
  #folderCount = 0
  #sequence = 0
  #stopped = false
  #waiters: Array<() => void> = []

  constructor(options: SenderUpdate, logger: Logger, random: () => number) {
    this.#initial = withUpdate(defaultSettings(), options)
    this.#settings = this.#initial
    this.#logger = logger
    this.#random = random
  }

  enqueue(input: Enqueued): void {
    let body = input.body
    if (input.kind === 'folder') {
      const n = this.#folderCount++
      const format = this.#settings.eventTimeFormat
      const form = format === 'mixed' ? (n % 2 === 0 ? 'epoch' : 'iso') : format
      body = varyFolderBody(body, form, this.#settings.nullHeavy)
    }
    const entry = this.#record(input, body)
    this.#admit(entry)
    const { duplicateProbability } = this.#settings
    if (duplicateProbability > 0 && this.#random() < duplicateProbability) {
      this.#admit(this.#record(input, body, entry.delivery.id))
    }
  }

  deliveries(): readonly Delivery[] {
    return this.#records.map((d) => ({ ...d }))
  }

  configure(update: SenderUpdate): void {
    this.#settings = withUpdate(this.#settings, update)
    if (this.#held.length > 0 && this.#held.length >= this.#settings.reorderWindow) this.#release()
  }

  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve)
      this.#settle()
    })
  }

  stop(): void {
    this.#stopped = true
    this.#cancelAll()
    this.#settle()
  }

  reset(): void {
    this.#cancelAll()
    this.#halt = new AbortController()
    this.#held = []
    this.#lanes.clear()
    this.#records.length = 0
    this.#folderCount = 0
    this.#settings = this.#initial
    this.#settle()
  }

  deliverTo(handler: DeliveryHandler, prefix = ''): () => void {
    const route = { prefix, handler }
    this.#routes.push(route)
    return () => {
      const at = this.#routes.indexOf(route)
      if (at >= 0) this.#routes.splice(at, 1)
    }
  }

  #cancelAll(): void {
    if (this.#holdTimer) clearTimeout(this.#holdTimer)
    this.#holdTimer = undefined
    this.#halt.abort()
  }

  #settle(): void {
    if (!this.#stopped && this.#records.some((d) => d.state === 'pending')) return
    const ready = this.#waiters
    this.#waiters = []
    for (const resolve of ready) resolve()
  }

  #record(input: Enqueued, body: unknown, duplicateOf?: string): Entry {
    const delivery: Delivery = {
      id: `dlv_${++this.#sequence}`,
      url: input.url,
      kind: input.kind,
      eventType: input.eventType,
      ...(input.eventId === undefined ? {} : { eventId: input.eventId }),
      body,
      attempts: 0,
      state: 'pending',
      ...(duplicateOf === undefined ? {} : { duplicateOf }),
    }
    this.#records.push(delivery)
    if (this.#records.length > HISTORY) {
      const settled = this.#records.findIndex((d) => d.state !== 'pending')
      if (settled >= 0) this.#records.splice(settled, 1)
    }
    return { delivery, text: stringifyJson(body) }
  }

  /** Into its lane, or held for the reorder fault. */
  #admit(entry: Entry): void {
    if (this.#stopped) return
    if (this.#settings.reorderWindow <= 0) {
      this.#toLane(entry)
      return
    }
    this.#held.push(entry)
    if (this.#held.length >= this.#settings.reorderWindow) this.#release()
    else {
      if (this.#holdTimer) clearTimeout(this.#holdTimer)
      this.#holdTimer = setTimeout(() => this.#release(), REORDER_QUIET_MS)
    }
  }

  #release(): void {
    if (this.#holdTimer) clearTimeout(this.#holdTimer)
    this.#holdTimer = undefined
    const batch = derange(this.#held, this.#random)
    this.#held = []
    for (const entry of batch) this.#toLane(entry)
  }

  #toLane(entry: Entry): void {
    const { url } = entry.delivery
    const queue = this.#lanes.get(url)
    if (queue) queue.push(entry)
    else {
      this.#lanes.set(url, [])
      void this.#drain(url, entry)
    }
  }

  /** Sends `first`, then the lane's queue, one at a time; the lane closes when it is empty. */
  async #drain(url: string, first: Entry): Promise<void> {
    const halt = this.#halt
    let entry: Entry | undefined = first
    while (entry && !halt.signal.aborted) {
      await this.#attempt(entry, halt.signal).catch((error: unknown) =>
        this.#logger.error('webhook delivery crashed', { error }),
      )
      this.#settle()
      entry = this.#lanes.get(url)?.shift()
    }
    if (!halt.signal.aborted) this.#lanes.delete(url)
  }

  async #attempt(entry: Entry, signal: AbortSignal): Promise<void> {
    const d = entry.delivery
    const { timeoutMs, retry } = this.#settings
    d.attempts++
    const handler = this.#routes.findLast((r) => d.url.startsWith(r.prefix))?.handler
    const outcome = await sendAttempt(d.url, entry.text, { timeoutMs, signal, handler })
    if (signal.aborted) {
      // stop(): the delivery stays pending; reset(): it is already forgotten.
      if (this.#stopped) d.lastError = 'stopped'
      return
    }
    if ('status' in outcome) {
      d.lastStatus = outcome.status
      if (outcome.status >= 200 && outcome.status < 300) {
        d.state = 'delivered'
        delete d.lastError
        return
      }
      d.lastError = `HTTP ${outcome.status}`
    } else {
      delete d.lastStatus
      d.lastError = outcome.error
    }
    this.#retryLater(entry, retry, signal)
  }

  #retryLater(entry: Entry, retry: Settings['retry'], signal: AbortSignal): void {
    const d = entry.delivery
    if (d.attempts > retry.maxRetries) {
      d.state = 'failed'
      this.#logger.warn(
        `webhook ${d.id} (${d.eventType}) to ${originOf(d.url)} failed after ${d.attempts} attempts: ${d.lastError}`,
      )
      return
    }
    const pause = backoffDelay(d.attempts - 1, retry, undefined, this.#random) ?? retry.maxDelayMs
    sleep(pause, signal).then(
      () => this.#toLane(entry),
      () => {},
    )
  }
}

/** The simulator's webhook sender. Faults are accepted in `options` too, so a simulator can start with them on. */
export function createWebhookSender(
  options: WebhookSenderOptions & DeliveryFaults,
  deps: { logger: Logger; random?: () => number },
): WebhookSender {
  return new Sender(options, deps.logger, deps.random ?? Math.random)
}
