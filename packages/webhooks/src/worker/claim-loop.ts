import { describeError } from '../errors.ts'
import { claimed, resumeAfterYield, shouldYield } from './ingest-yield.ts'
import { runClaimed } from './run-one.ts'
import { isActive, type WorkerState } from './state.ts'

/**
 * Claim in batches (four times the concurrency) into a local buffer, and start buffered events
 * as slots free up: one claim per batch instead of one per event, which under load is what lets
 * processing keep up with ingest. Buffered events hold their lease; one whose lease ran out
 * while it waited is left for the next claim (see run-one.ts). Resolves to how many it claimed.
 *
 * A slot is a handler running: it frees when the handler returns, not when its outcome is
 * recorded, so the outcomes of many events share one commit (on SQLite each commit is an
 * fsync, the largest cost of processing an event) instead of at most `concurrency` of them.
 * Events between their start and their recorded outcome stay at most twice `concurrency`, so a
 * crash interrupts no more runs than before this split (the handlers running, plus as many whose
 * outcome was not yet committed).
 *
 * Claiming again waits for the outcomes of what ran: a claim that did not see an event done
 * would, with ordering per key, skip its successor. On a store whose writes apply in request
 * order (`writesInOrder`: SQLite), a claim requested after an outcome sees it, so the claim is
 * requested once the outcomes are (not committed) and joins their commit: a batch of 4 x
 * `concurrency` takes two commits instead of about five. Starting events still waits for
 * commits, so the bound above holds.
 */
export function pump(w: WorkerState): Promise<number> {
  if (w.pumping) {
    w.again = true
    return w.current
  }
  // A flag, not the promise: with no capacity the loop finishes synchronously, before the
  // promise could be stored, and a cleared-then-stored promise would block pumping forever.
  w.pumping = true
  w.current = claimLoop(w)
  return w.current
}

async function claimLoop(w: WorkerState): Promise<number> {
  let total = 0
  try {
    do {
      w.again = false
      startBuffered(w)
      total += await claimWhileRoom(w)
    } while (w.again && isActive(w))
  } catch (error) {
    w.logger.error('webhooks: claiming events failed', { error: describeError(error) })
    w.onFailure(undefined, error, undefined)
  } finally {
    w.pumping = false
    w.lastLoopAt = w.clock.now()
  }
  return total
}

async function claimWhileRoom(w: WorkerState): Promise<number> {
  const { concurrency } = w.settings
  const batchSize = concurrency * 4
  let total = 0
  while (isActive(w) && canClaim(w) && w.buffered.length === 0) {
    if (w.draining === 0 && shouldYield(w.ingest, w.ingestBusy)) {
      resumeAfterYield(w.ingest, () => {
        if (isActive(w)) void pump(w)
      })
      break
    }
    claimed(w.ingest)
    // Each claim gets its own owner string, so a run whose lease was lost and re-claimed can
    // neither renew nor settle the event under its new owner.
    const owner = `${w.instance}:${++w.claims}`
    const events = await w.store.claim({
      owner,
      limit: batchSize,
      now: w.clock.now(),
      leaseMs: w.settings.leaseMs,
    })
    w.lastLoopAt = w.clock.now()
    total += events.length
    for (const event of events) w.buffered.push({ event, owner })
    startBuffered(w)
    if (events.length < batchSize) break
  }
  return total
}

/** A free slot, and fewer than twice `concurrency` events between their start and their recorded outcome. */
function canStart(w: WorkerState): boolean {
  return w.handlersRunning < w.settings.concurrency && w.inFlight.size < w.settings.concurrency * 2
}

/** As `canStart`, counting events until their outcome is released (see `release`) rather than recorded. */
function canClaim(w: WorkerState): boolean {
  return w.handlersRunning < w.settings.concurrency && w.open < w.settings.concurrency * 2
}

/** Claimed events run even while stopping: they are leased to this worker. */
export function startBuffered(w: WorkerState): void {
  while (canStart(w) && w.buffered.length > 0) {
    const held = w.buffered.shift()!
    const slot: Slot = { held: true, open: true }
    w.handlersRunning++
    w.open++
    const task = runClaimed(w, held, {
      handlerDone: () => freeSlot(w, slot),
      outcomeQueued: () => {
        if (w.store.writesInOrder) release(w, slot)
      },
    })
    w.inFlight.add(task)
    task.finally(() => {
      w.inFlight.delete(task)
      freeSlot(w, slot)
      release(w, slot)
      next(w)
    })
  }
}

/** One started event: its handler slot (`held`), and whether it still counts as open. */
interface Slot {
  held: boolean
  open: boolean
}

/**
 * The handler returned (or never ran): the next claimed event can start while this one's outcome
 * is recorded. Claiming more waits for that outcome (`release`): a claim sent before it would
 * not see the event done, and with ordering per key would skip its successor.
 */
function freeSlot(w: WorkerState, slot: Slot): void {
  if (!slot.held) return
  slot.held = false
  w.handlersRunning--
  startBuffered(w)
}

/**
 * The event's outcome is recorded, or (`writesInOrder`) requested: a claim sent now sees it, so
 * the loop may claim again.
 */
function release(w: WorkerState, slot: Slot): void {
  if (!slot.open) return
  slot.open = false
  w.open--
  if (isActive(w)) void pump(w)
}

/** The event's outcome is recorded: room to start the next buffered one, or to claim more. */
function next(w: WorkerState): void {
  if (isActive(w)) void pump(w)
  else startBuffered(w)
}
