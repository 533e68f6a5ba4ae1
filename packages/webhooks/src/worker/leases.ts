import { describeError } from '../errors.ts'
import type { WorkerState } from './state.ts'

/** A lease this worker holds on a running event, renewed until the run ends. */
export interface HeldLease {
  key: string
  owner: string
  /** An open transaction holds the row locked: nobody can claim it, no renewal needed. */
  transactionOpen(): boolean
}

/**
 * One timer renews every running event's lease (every third of `leaseMs`), instead of one timer
 * per event: under load, setting and clearing a timer per event was a visible share of the CPU.
 */
export interface Leases {
  readonly held: Set<HeldLease>
  timer: ReturnType<typeof setInterval> | undefined
}

export function leases(): Leases {
  return { held: new Set(), timer: undefined }
}

export function holdLease(w: WorkerState, lease: HeldLease): void {
  w.leases.held.add(lease)
  w.leases.timer ??= setInterval(() => renewAll(w), Math.max(1, Math.floor(w.settings.leaseMs / 3)))
}

export function releaseLease(w: WorkerState, lease: HeldLease): void {
  w.leases.held.delete(lease)
  if (w.leases.held.size === 0 && w.leases.timer) {
    clearInterval(w.leases.timer)
    w.leases.timer = undefined
  }
}

function renewAll(w: WorkerState): void {
  const until = w.clock.now() + w.settings.leaseMs
  for (const lease of w.leases.held) {
    if (lease.transactionOpen()) continue
    w.store.renew(lease.key, lease.owner, until).then(
      (held) => {
        if (!held)
          w.logger.warn('webhooks: lost the lease on an event while its handler ran', { key: lease.key })
      },
      (error) =>
        w.logger.warn('webhooks: renewing a lease failed', { key: lease.key, error: describeError(error) }),
    )
  }
}
