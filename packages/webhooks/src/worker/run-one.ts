import { backoffDelay } from '@service-sdk/core/internal'
import { describeError, WebhookError } from '../errors.ts'
import type { ClaimedEvent, Settlement } from '../stores/store.ts'
import { EventTransaction } from './event-transaction.ts'
import { holdLease, releaseLease } from './leases.ts'
import type { Held, WorkerState } from './state.ts'

/** What a run tells its claim loop on the way (each called at most once; see claim-loop.ts). */
export interface RunSignals {
  /** The handlers have returned (or never ran); the outcome is not recorded yet. */
  handlerDone(): void
  /** The outcome was requested from the store, not yet committed. */
  outcomeQueued(): void
}

const NO_SIGNALS: RunSignals = { handlerDone: () => {}, outcomeQueued: () => {} }

/** Runs one claimed event and records its outcome: done, pending with a later retry, or dead. */
export async function runClaimed(
  w: WorkerState,
  { event, owner, body }: Held,
  signals: RunSignals = NO_SIGNALS,
): Promise<void> {
  const { clock } = w
  const settle = (outcome: Settlement) => record(w, event, owner, outcome, signals.outcomeQueued)
  // A lease that expired on every attempt means the worker died (or hung) on this event every
  // time; running it again would crash again.
  if (event.attempts > w.settings.retry.maxRetries + 1) {
    const error = `Not run: its lease expired on ${event.attempts - 1} attempts (the worker crashed or hung while running it).`
    await settle({ status: 'dead', at: clock.now(), error })
    w.onFailure(event, new WebhookError(error, { code: 'handler_failed' }), undefined)
    return
  }
  if (clock.now() >= event.leaseUntil) {
    // The claim came back too late (a stalled event loop): another worker may hold it now.
    w.logger.warn('webhooks: a lease expired before its handler started; not running it here', {
      key: event.key,
    })
    return
  }
  const failure = await attempt(w, event, owner, body)
  signals.handlerDone()
  if (failure === 'committed') return
  if (failure === undefined) {
    await settle({ status: 'done', at: clock.now() })
    return
  }
  const retryAt = nextAttemptAt(w, event, failure.error)
  const error = w.errorLine(failure.error)
  await settle(
    retryAt === undefined
      ? { status: 'dead', at: clock.now(), error }
      : { status: 'pending', nextAttemptAt: retryAt, error },
  )
  w.onFailure(event, failure.error, retryAt)
}

/**
 * The handlers' run under a renewed lease: `undefined` when it succeeded, `'committed'` when its
 * transaction already marked the event done, or what it threw.
 */
async function attempt(
  w: WorkerState,
  event: ClaimedEvent,
  owner: string,
  body: Record<string, unknown> | undefined,
): Promise<undefined | 'committed' | { error: unknown }> {
  const tx = new EventTransaction(w, event, owner)
  const lease = { key: event.key, owner, transactionOpen: () => tx.opened() }
  holdLease(w, lease)
  try {
    await w.run(event, tx.tools, body)
    return (await tx.commitDone()) ? 'committed' : undefined
  } catch (error) {
    await tx.rollback()
    return { error }
  } finally {
    releaseLease(w, lease)
  }
}

/** When a failed event runs again; `undefined`: never (its last attempt, or a permanent failure). */
function nextAttemptAt(w: WorkerState, event: ClaimedEvent, error: unknown): number | undefined {
  const { retry } = w.settings
  const permanent = WebhookError.isInstance(error) && error.code === 'invalid_payload'
  // attempts counts runs; the retry after attempt n is retry n - 1 (0 is the first).
  if (permanent || event.attempts > retry.maxRetries) return undefined
  return (
    w.clock.now() + (backoffDelay(event.attempts - 1, retry, undefined, w.clock.random) ?? retry.maxDelayMs)
  )
}

/** Settles the event; `queued` runs once the store has the request, before it commits. */
async function record(
  w: WorkerState,
  event: ClaimedEvent,
  owner: string,
  outcome: Settlement,
  queued: () => void,
): Promise<void> {
  try {
    const recorded = w.store.settle(event.key, owner, outcome)
    queued()
    const held = await recorded
    if (!held)
      w.logger.warn('webhooks: an event was re-claimed before it settled; it may run twice', {
        key: event.key,
      })
  } catch (error) {
    // The lease will expire and the event run again: at least once, never lost.
    w.logger.error('webhooks: recording an outcome failed; the event will run again', {
      key: event.key,
      error: describeError(error),
    })
    // A store failure, not the handler's: reported as such (the event is neither failed nor dead).
    w.onFailure(undefined, error, undefined)
  }
}
