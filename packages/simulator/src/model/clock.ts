import { SimError } from '../http/sim-error.ts'

/**
 * The service's time, which tests can move. It runs with its base clock (`Date.now`, or the
 * simulator's `now` option) plus every advance. What the service lets expire follows it: STS
 * credentials, the `invalidTime` of team spaces (org-info's `valid` and the write rule),
 * impersonation links, and the validity of assets (VALIDITY events as days pass). Signature
 * times do not: a request signed now is judged against the base clock, as a real client's clock
 * would not jump with a test's.
 */
export interface SimulatorClock {
  /** The service's time now, epoch milliseconds. */
  now(): number
  /** Moves the service's time forward by `ms` (0 or more); resolves once what it expired has been applied. */
  advance(ms: number): Promise<number>
  /** Sets the service's time (forward or back); resolves once what it expired has been applied. */
  set(time: number): Promise<number>
}

/** The clock and what the simulator does when it moves (its listeners run after each move). */
export interface MovableClock extends SimulatorClock {
  /** `listener` runs after every move, with the times before and after. */
  onMove(listener: (from: number, to: number) => Promise<void> | void): void
  /** Back to the base clock (a reset to the seed). */
  reset(): void
}

export function createClock(base: () => number): MovableClock {
  let offset = 0
  const listeners: Array<(from: number, to: number) => Promise<void> | void> = []
  const now = () => base() + offset
  const moveTo = async (time: number) => {
    const from = now()
    offset = time - base()
    for (const listener of listeners) await listener(from, time)
    return now()
  }
  return {
    now,
    async advance(ms) {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new SimError('bad_request', 'clock.advance(ms): ms must be a number of milliseconds, 0 or more')
      return moveTo(now() + ms)
    },
    async set(time) {
      if (!Number.isFinite(time))
        throw new SimError('bad_request', 'clock.set(time): time must be epoch milliseconds')
      return moveTo(time)
    },
    onMove: (listener) => listeners.push(listener),
    reset() {
      offset = 0
    },
  }
}
