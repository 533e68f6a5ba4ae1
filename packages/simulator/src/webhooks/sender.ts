import { stringifyJson } from '@service-sdk/core'
import { SimError } from '../sim-error.ts'
import { type DeliveryHandler, deliverInProcess } from '../testing/deliver.ts'
import { derange, type EventTimeFormat, varyFolderBody } from './delivery-faults.ts'

export interface WebhookSenderOptions {
  /** Deliveries per event before giving up. Default 6. */
  maxAttempts?: number
  /** First retry pause, doubling, capped at 30 s. Default 500. */
  initialBackoffMs?: number
  /** One delivery attempt. Default 10 000. */
  timeoutMs?: number
}

/** Bounded faults, switchable per test through `configure()`. */
export interface DeliveryFaults {
  /** Send a delivery twice (at-least-once, as real senders do). Default 0. */
  duplicateProbability?: number
  /**
   * Hold up to N queued deliveries and release them shuffled (every one out of place); held
   * deliveries are also released after a short quiet period. Default 0 (off).
   */
  reorderWindow?: number
  /** Folder callback eventTime: epoch-ms string (default, as the live sample), ISO 8601 with offset, or alternating. */
  eventTimeFormat?: EventTimeFormat
  /** Folder callback assets with every nullable field null (as the live sample). Default false. */
  nullHeavy?: boolean
}

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

export interface WebhookSender {
  enqueue(delivery: {
    url: string
    kind: 'folder' | 'asset'
    eventType: string
    eventId?: string
    body: unknown
  }): void
  /** Deliveries so far, oldest first, as copies: the most recent 10 000 and every pending one. */
  deliveries(): readonly Delivery[]
  configure(options: Partial<WebhookSenderOptions & DeliveryFaults>): void
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

type Settings = Required<WebhookSenderOptions & DeliveryFaults>

const DEFAULTS: Settings = {
  maxAttempts: 6,
  initialBackoffMs: 500,
  timeoutMs: 10_000,
  duplicateProbability: 0,
  reorderWindow: 0,
  eventTimeFormat: 'epoch',
  nullHeavy: false,
}

const MAX_BACKOFF_MS = 30_000
/** Held deliveries go out after this long without a new one, so a short batch is not held forever. */
const REORDER_QUIET_MS = 25
const USER_AGENT = 'service-sim-webhooks'
/** Settled deliveries kept for inspection; older ones are forgotten so a long-running simulator stays small. */
const HISTORY = 10_000

interface Entry {
  delivery: Delivery
  /** Serialized once, so retries and duplicates send the same bytes. */
  text: string
}

/** One in flight per URL: deliveries to a receiver arrive in queue order unless a fault or a retry reorders them. */
interface Lane {
  queue: Entry[]
  busy: boolean
}

/**
 * Asynchronous at-least-once delivery: POST with a per-attempt timeout; any non-2xx, timeout or
 * connection error is retried with exponential backoff up to `maxAttempts`, then marked failed.
 * A retry waits outside its lane, so one failing event does not hold back later ones.
 */
export function createWebhookSender(
  // Faults are accepted here too, so a simulator can start with them switched on.
  options: WebhookSenderOptions & DeliveryFaults,
  deps: { now: () => number; log: (message: string, error?: unknown) => void; random?: () => number },
): WebhookSender {
  const random = deps.random ?? Math.random
  const settings: Settings = { ...DEFAULTS }
  applySettings(settings, options)
  const records: Delivery[] = []
  const lanes = new Map<string, Lane>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let halt = new AbortController()
  const routes: Array<{ prefix: string; handler: DeliveryHandler }> = []
  /** Bumped by reset(): attempts of an earlier generation are forgotten when they settle. */
  let generation = 0
  let held: Entry[] = []
  let holdTimer: ReturnType<typeof setTimeout> | undefined
  let folderCount = 0
  let sequence = 0
  let stopped = false
  let waiters: Array<() => void> = []

  function settle(): void {
    if (!stopped && records.some((d) => d.state === 'pending')) return
    const ready = waiters
    waiters = []
    for (const resolve of ready) resolve()
  }

  function toLane(entry: Entry): void {
    const { url } = entry.delivery
    let lane = lanes.get(url)
    if (!lane) {
      lane = { queue: [], busy: false }
      lanes.set(url, lane)
    }
    lane.queue.push(entry)
    pump(url, lane)
  }

  function pump(url: string, lane: Lane): void {
    if (lane.busy || stopped) return
    const entry = lane.queue.shift()
    if (!entry) {
      if (lanes.get(url) === lane) lanes.delete(url)
      return
    }
    lane.busy = true
    attempt(entry)
      .catch((error: unknown) => deps.log('webhook delivery crashed', error))
      .finally(() => {
        lane.busy = false
        pump(url, lane)
        settle()
      })
  }

  function release(): void {
    if (holdTimer) clearTimeout(holdTimer)
    holdTimer = undefined
    const batch = derange(held, random)
    held = []
    for (const entry of batch) toLane(entry)
  }

  function admit(entry: Entry): void {
    if (stopped) return
    if (settings.reorderWindow <= 0) {
      toLane(entry)
      return
    }
    held.push(entry)
    if (held.length >= settings.reorderWindow) {
      release()
      return
    }
    if (holdTimer) clearTimeout(holdTimer)
    holdTimer = setTimeout(release, REORDER_QUIET_MS)
  }

  async function attempt(entry: Entry): Promise<void> {
    const d = entry.delivery
    const timeoutMs = settings.timeoutMs
    const started = generation
    d.attempts++
    try {
      const init: RequestInit = {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: entry.text,
        redirect: 'manual',
        signal: AbortSignal.any([halt.signal, AbortSignal.timeout(timeoutMs)]),
      }
      const handler = routes.findLast((r) => d.url.startsWith(r.prefix))?.handler
      const response = handler ? await deliverInProcess(handler, d.url, init) : await fetch(d.url, init)
      if (started !== generation) return
      // Only the status matters; release the connection.
      await response.body?.cancel().catch(() => {})
      d.lastStatus = response.status
      if (response.status >= 200 && response.status < 300) {
        d.state = 'delivered'
        delete d.lastError
        return
      }
      d.lastError = `HTTP ${response.status}`
    } catch (error) {
      if (started !== generation) return
      delete d.lastStatus
      if (stopped) {
        d.lastError = 'stopped'
        return
      }
      d.lastError = describe(error, timeoutMs)
    }
    if (d.attempts >= settings.maxAttempts) {
      d.state = 'failed'
      // The URL may carry the receiver's secret token: log its origin only.
      deps.log(
        `webhook ${d.id} (${d.eventType}) to ${originOf(d.url)} failed after ${d.attempts} attempts: ${d.lastError}`,
      )
      return
    }
    const pause = Math.min(settings.initialBackoffMs * 2 ** (d.attempts - 1), MAX_BACKOFF_MS)
    const timer = setTimeout(() => {
      timers.delete(timer)
      toLane(entry)
    }, pause)
    timers.add(timer)
  }

  function record(
    input: Parameters<WebhookSender['enqueue']>[0],
    body: unknown,
    duplicateOf?: string,
  ): Entry {
    const delivery: Delivery = {
      id: `dlv_${++sequence}`,
      url: input.url,
      kind: input.kind,
      eventType: input.eventType,
      ...(input.eventId === undefined ? {} : { eventId: input.eventId }),
      body,
      attempts: 0,
      state: 'pending',
      ...(duplicateOf === undefined ? {} : { duplicateOf }),
    }
    records.push(delivery)
    if (records.length > HISTORY) {
      const settled = records.findIndex((d) => d.state !== 'pending')
      if (settled >= 0) records.splice(settled, 1)
    }
    return { delivery, text: stringifyJson(body) }
  }

  return {
    enqueue(input) {
      let body = input.body
      if (input.kind === 'folder') {
        const n = folderCount++
        const format = settings.eventTimeFormat
        const form = format === 'mixed' ? (n % 2 === 0 ? 'epoch' : 'iso') : format
        body = varyFolderBody(body, form, settings.nullHeavy)
      }
      const entry = record(input, body)
      admit(entry)
      if (settings.duplicateProbability > 0 && random() < settings.duplicateProbability) {
        admit(record(input, body, entry.delivery.id))
      }
    },
    deliveries: () => records.map((d) => ({ ...d })),
    configure(update) {
      applySettings(settings, update)
      if (held.length > 0 && held.length >= settings.reorderWindow) release()
    },
    idle() {
      return new Promise((resolve) => {
        waiters.push(resolve)
        settle()
      })
    },
    stop() {
      stopped = true
      if (holdTimer) clearTimeout(holdTimer)
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      halt.abort()
      settle()
    },
    reset() {
      generation++
      halt.abort()
      halt = new AbortController()
      if (holdTimer) clearTimeout(holdTimer)
      holdTimer = undefined
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      held = []
      lanes.clear()
      records.length = 0
      folderCount = 0
      Object.assign(settings, DEFAULTS)
      applySettings(settings, options)
      settle()
    },
    deliverTo(handler, prefix = '') {
      const route = { prefix, handler }
      routes.push(route)
      return () => {
        const at = routes.indexOf(route)
        if (at >= 0) routes.splice(at, 1)
      }
    },
  }
}

function applySettings(settings: Settings, update: Partial<WebhookSenderOptions & DeliveryFaults>): void {
  const next = { ...settings }
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue
    if (!(key in DEFAULTS)) throw new SimError('bad_request', `Unknown webhook option: ${key}`)
    ;(next as Record<string, unknown>)[key] = value
  }
  const integer = (v: number, min: number) => Number.isSafeInteger(v) && v >= min
  if (!integer(next.maxAttempts, 1)) throw new SimError('bad_request', 'maxAttempts must be an integer >= 1')
  if (!integer(next.initialBackoffMs, 0))
    throw new SimError('bad_request', 'initialBackoffMs must be an integer >= 0')
  if (!integer(next.timeoutMs, 1)) throw new SimError('bad_request', 'timeoutMs must be an integer >= 1')
  if (!integer(next.reorderWindow, 0))
    throw new SimError('bad_request', 'reorderWindow must be an integer >= 0')
  const p = next.duplicateProbability
  if (typeof p !== 'number' || !(p >= 0 && p <= 1))
    throw new SimError('bad_request', 'duplicateProbability must be in [0, 1]')
  if (!['epoch', 'iso', 'mixed'].includes(next.eventTimeFormat)) {
    throw new SimError('bad_request', 'eventTimeFormat must be epoch, iso or mixed')
  }
  if (typeof next.nullHeavy !== 'boolean') throw new SimError('bad_request', 'nullHeavy must be a boolean')
  Object.assign(settings, next)
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined
  if (cause?.code) return `${cause.code}: ${cause.message ?? 'connection error'}`
  return error instanceof Error ? error.message : String(error)
}

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'an invalid URL'
}
