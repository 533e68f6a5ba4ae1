import type { Logger } from '@service-sdk/core'
import type { ClaimedEvent, StoreTransaction, WebhookStore } from '../stores/store.ts'
import type { IngestYield } from './ingest-yield.ts'
import type { Leases } from './leases.ts'
import type { ProcessingSettings } from './settings.ts'

export interface WorkerClock {
  now(): number
  random(): number
}

/** What the worker gives a run: the event's transaction, opened on first use (PostgreSQL). */
export interface RunTools {
  transaction(): Promise<Pick<StoreTransaction, 'query'>>
}

/**
 * What the worker runs for one event; a `WebhookError` with code `invalid_payload` is not retried.
 * `body` is the event's body already parsed, when this process received it (see `Held.body`).
 */
export type RunEvent = (
  event: ClaimedEvent,
  tools: RunTools,
  body: Record<string, unknown> | undefined,
) => Promise<void>

/** What the worker reports for every failed attempt (and every store failure). */
export type FailureReport = (
  event: ClaimedEvent | undefined,
  error: unknown,
  retryAt: number | undefined,
) => void

/** What a worker is made of; see `createWorker`. */
export interface WorkerInit {
  store: WebhookStore
  run: RunEvent
  settings: ProcessingSettings
  clock: WorkerClock
  logger: Logger
  /** Turns an error into the one line stored as `lastError` (secrets removed). */
  errorLine: (error: unknown) => string
  onFailure: FailureReport
  /** Whether requests are being received right now (see ingest-yield.ts). */
  ingestBusy?: (() => boolean) | undefined
  /** Keep the process alive while started (a worker process has nothing else to); default false. */
  keepAlive?: boolean
}

/** A claimed event waiting for a free slot, with the owner string its claim was made under. */
export interface Held {
  event: ClaimedEvent
  owner: string
  /**
   * Its body as parsed when this process received it (a leased arrival, see arrivals.ts): the
   * run reads it instead of parsing `event.body` again. Absent for claimed events, and for an
   * arrival admitted while the worker had no room for it.
   */
  body?: Record<string, unknown> | undefined
}

/** One worker's state, passed to the module functions of this folder. */
export interface WorkerState extends WorkerInit {
  /** Prefix of every claim's owner: each claim gets its own (see claim-loop.ts). */
  readonly instance: string
  claims: number
  /** Claimed, not yet started (a batch is claimed at once). */
  readonly buffered: Held[]
  /** Events from their start to their recorded outcome. */
  readonly inFlight: Set<Promise<void>>
  /**
   * Events started whose outcome is not yet recorded, or on a `writesInOrder` store not yet
   * requested: what claiming again waits for (see claim-loop.ts).
   */
  open: number
  /** Leases handed out for events being stored (arrivals.ts), not yet stored or cancelled. */
  arriving: number
  /** Handlers running now: what `concurrency` limits. */
  handlersRunning: number
  running: boolean
  /** `drain()` calls under way: they process even while not started. */
  draining: number
  /** A claim loop is running (`current`); `again`: look once more when it ends. */
  pumping: boolean
  again: boolean
  current: Promise<number>
  /** When the claim loop last finished a claim or a round (worker clock): its liveness. */
  lastLoopAt: number | undefined
  pollTimer: ReturnType<typeof setInterval> | undefined
  subscription: Promise<(() => Promise<void>) | undefined> | undefined
  readonly ingest: IngestYield
  readonly leases: Leases
}

export function isActive(w: WorkerState): boolean {
  return w.running || w.draining > 0
}
