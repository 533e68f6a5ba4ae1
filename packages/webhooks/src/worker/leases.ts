import type { Logger } from '@service-sdk/core'
import { describeError } from '../errors.ts'
import type { WebhookStore } from '../stores/store.ts'

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

/** What the functions below use of a worker (its `WorkerState`, which holds the `Leases`). */
interface LeaseKeeper {
  readonly leases: Leases
  readonly settings: { readonly leaseMs: number }
  readonly clock: { now(): number }
  readonly store: Pick<WebhookStore, 'renew'>
  readonly logger: Pick<Logger, 'warn'>
}

export function leases(): Leases {
  return { held: new Set(), timer: undefined }
}

export function holdLease(w: LeaseKeeper, lease: HeldLease): void {
  w.leases.held.add(lease)
  w.leases.timer ??= setInterval(() => renewAll(w), Math.max(1, Math.floor(w.settings.leaseMs / 3)))
}

export function releaseLease(w: LeaseKeeper, lease: HeldLease): void {
  w.leases.held.delete(lease)
  if (w.leases.held.size === 0 && w.leases.timer) {
    clearInterval(w.leases.timer)
    w.leases.timer = undefined
  }
}

function renewAll(w: LeaseKeeper): void {
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
