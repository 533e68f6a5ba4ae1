import type { ArrivalLease, ClaimedEvent, NewEvent } from '../stores/store.ts'
import { startBuffered } from './claim-loop.ts'
import { shouldYield } from './ingest-yield.ts'
import { isActive, type WorkerState } from './state.ts'

/**
 * An event being received, offered to this worker before it is stored: stored under `lease`
 * (the store's `insert` leases it, see `NewEvent.lease`), it runs from what was received.
 */
export interface Arrival {
  readonly lease: ArrivalLease
  /**
   * It was stored under the lease: run it, from `body` (its text parsed at admission), or from
   * its text when admission kept no parsed body (the worker had no room for it then).
   */
  stored(event: NewEvent, body: Record<string, unknown> | undefined): void
  /** It was not (a duplicate, or the insert failed): give the room back. */
  cancel(): void
}

/**
 * A lease for an event about to be stored, when this worker has room for it (as much as one
 * claim's batch, four times `concurrency`, counting what is buffered and running), or
 * `undefined`: the event is stored pending and claimed later. Leased at insert, an event costs
 * its row one write fewer (no claim rewrites it, with its `_due` and `_lease` index entries), and
 * the thread does not send its body back: under load on SQLite the claim's share of an event's
 * CPU. Not while the worker yields to incoming requests (ingest-yield.ts: acknowledgements
 * first), nor on a store that cannot lease at insert, nor while stopped.
 */
export function arrival(w: WorkerState): Arrival | undefined {
  if (!wouldTakeArrival(w)) return undefined
  w.arriving++
  // Its own owner string, as each claim's (see claim-loop.ts).
  const owner = `${w.instance}:${++w.claims}`
  const until = w.clock.now() + w.settings.leaseMs
  let pending = true
  const settle = (): boolean => {
    if (!pending) return false
    pending = false
    w.arriving--
    return true
  }
  return {
    lease: { owner, until },
    stored(event, body) {
      if (!settle()) return
      // Stopped meanwhile: the lease expires and the event runs again (here after a restart, or
      // in another worker), as after a crash.
      if (!isActive(w)) return
      w.buffered.push({ event: leasedEvent(event, until), owner, body })
      startBuffered(w)
    },
    cancel: () => void settle(),
  }
}

/** Whether `arrival` would offer a lease now (see there). */
export function wouldTakeArrival(w: WorkerState): boolean {
  if (!w.running || !w.store.leasesOnInsert) return false
  if (w.arriving + w.buffered.length + w.handlersRunning >= w.settings.concurrency * 4) return false
  return w.draining > 0 || !shouldYield(w.ingest, w.ingestBusy)
}

/** The event as a claim would have returned it: processing, first attempt, leased to `owner`. */
function leasedEvent(event: NewEvent, until: number): ClaimedEvent {
  return {
    key: event.key,
    eventType: event.eventType,
    body: event.body,
    receivedAt: event.receivedAt,
    orderKey: null,
    status: 'processing',
    attempts: 1,
    nextAttemptAt: event.receivedAt,
    leaseUntil: until,
    lastError: null,
    finishedAt: null,
  }
}
