import { randomBytes } from 'node:crypto'
import { describeError } from '../errors.ts'
import { type Arrival, arrival, wouldTakeArrival } from './arrivals.ts'
import { pump } from './claim-loop.ts'
import { cancelYield, ingestYield } from './ingest-yield.ts'
import { leases } from './leases.ts'
import { isActive, type WorkerInit, type WorkerState } from './state.ts'

export type { Arrival } from './arrivals.ts'
export type { EventRetryOptions, ProcessingOptions, ProcessingSettings } from './settings.ts'
export { processingSettings } from './settings.ts'
export type { FailureReport, RunEvent, RunTools, WorkerClock, WorkerInit } from './state.ts'

export interface Worker {
  /** Look for work now (called after each stored event). */
  wake(): void
  /**
   * A lease for an event about to be stored, when this worker has room to run it (see
   * arrivals.ts); `undefined` otherwise (store it pending, then `wake()`).
   */
  arrival(): Arrival | undefined
  /**
   * Whether `arrival()` would offer a lease now: when it would not, nothing here reads an arriving
   * event's parsed body (the event is claimed later, from its stored text).
   */
  wouldTakeArrival(): boolean
  start(): void
  /** Stop claiming; resolves when the events in flight have settled. */
  stop(): Promise<void>
  /** Process until nothing is due and nothing runs; events waiting for a retry are left waiting. */
  drain(): Promise<void>
  /** Whether it runs, and when its claim loop last went round (for `health()`). */
  liveness(): { running: boolean; lastLoopAt: number | undefined; pollIntervalMs: number }
}

/**
 * The loop that claims stored events and runs them: its state is a `WorkerState`, the steps are
 * the functions of `worker/` (claim-loop, run-one, leases, ingest-yield, event-transaction).
 */
export function createWorker(init: WorkerInit): Worker {
  const w: WorkerState = {
    ...init,
    instance: randomBytes(6).toString('hex'),
    claims: 0,
    buffered: [],
    inFlight: new Set(),
    open: 0,
    arriving: 0,
    handlersRunning: 0,
    running: false,
    draining: 0,
    pumping: false,
    again: false,
    current: Promise.resolve(0),
    lastLoopAt: undefined,
    pollTimer: undefined,
    subscription: undefined,
    ingest: ingestYield(),
    leases: leases(),
  }
  return {
    wake: () => {
      if (isActive(w)) void pump(w)
    },
    arrival: () => arrival(w),
    wouldTakeArrival: () => wouldTakeArrival(w),
    start: () => start(w),
    stop: () => stop(w),
    drain: () => drain(w),
    liveness: () => ({
      running: w.running,
      lastLoopAt: w.lastLoopAt,
      pollIntervalMs: w.settings.pollIntervalMs,
    }),
  }
}

function start(w: WorkerState): void {
  if (w.running) return
  w.running = true
  w.lastLoopAt = w.clock.now()
  w.pollTimer = setInterval(() => void pump(w), w.settings.pollIntervalMs)
  if (!w.keepAlive) w.pollTimer.unref?.()
  // Stored or re-queued anywhere (another process, too): look now instead of at the next poll.
  w.subscription = w.store
    .subscribe?.(() => {
      if (isActive(w)) void pump(w)
    })
    .catch((error: unknown) => {
      w.logger.warn('webhooks: listening for new events failed; polling only', {
        error: describeError(error),
      })
      return undefined
    })
  void pump(w)
}

async function stop(w: WorkerState): Promise<void> {
  w.running = false
  const unsubscribe = await w.subscription
  w.subscription = undefined
  await unsubscribe?.()
  cancelYield(w.ingest)
  if (w.pollTimer) clearInterval(w.pollTimer)
  w.pollTimer = undefined
  await w.current
  while (w.inFlight.size > 0) await Promise.all(w.inFlight)
}

async function drain(w: WorkerState): Promise<void> {
  w.draining++
  try {
    for (;;) {
      const claimed = await pump(w)
      if (w.inFlight.size > 0) await Promise.race(w.inFlight)
      else if (claimed === 0 && !w.again) {
        // One more look: work may have been stored while the last claim was in flight.
        if ((await pump(w)) === 0 && w.inFlight.size === 0) return
      }
    }
  } finally {
    w.draining--
  }
}
