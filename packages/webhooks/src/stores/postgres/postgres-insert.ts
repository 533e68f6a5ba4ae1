import { WebhookError } from '../../errors.ts'
import type { NewEvent } from '../store.ts'
import type { PgDatabase } from './postgres-database.ts'
import { InsertStatement } from './postgres-insert-statement.ts'
import type { PgQueryable } from './postgres-pool.ts'

type Outcome = 'inserted' | 'duplicate'

interface Pending {
  event: NewEvent
  resolve: (outcome: Outcome) => void
  reject: (error: unknown) => void
  /** Later requests for the same key while this one is queued or in flight. */
  twins?: Pending[]
}

export interface BatchLimits {
  /** Multi-row INSERTs in flight at once (each on its own pooled connection). */
  inFlight: number
  /** Rows per statement at most. */
  rows: number
  /**
   * While a batch is in flight, another starts only once this many requests wait; fewer wait for
   * a batch to finish and go with the next one. Each statement and its commit cost PostgreSQL and
   * this process a fixed amount of CPU, so under load fewer, larger batches store more events.
   */
  fill: number
  /** Requests waiting beyond this many are refused at once (503) instead of piling up while the database stalls. */
  queued: number
  /**
   * Group commit under load: when no batch is in flight and the last one carried several rows,
   * the next waits up to this long (as PostgreSQL's `commit_delay`) or until `fill` requests wait,
   * so that the senders just acknowledged can send their next events into it. 0: no wait.
   */
  delayMs: number
}

/** PostgreSQL's "deadlock detected": two batches inserting the same new keys in opposite orders. */
const DEADLOCK = '40P01'

/**
 * Group commit with several batches in flight. Requests that arrive during one turn of the event
 * loop go together as one multi-row `INSERT ... ON CONFLICT DO NOTHING` (one commit, one fsync
 * for all). When requests pile up behind a batch in flight, up to `inFlight` statements run at
 * once, so the database's commits overlap instead of each process waiting for its previous one;
 * a few requests wait for the batch in flight instead, so that batches stay large (see `fill`).
 * After a batch of several rows, the next waits up to `delayMs` for the senders just acknowledged
 * to send again, instead of two halves of them taking turns (see `delayMs`); a lone event does
 * not wait. The statement also notifies listening workers, once per batch (postgres-insert-statement.ts).
 *
 * A key already queued or in flight in this process is not sent again: its request waits for
 * the first one and is a duplicate. Batches in flight at once each keep their arrival order, so
 * two events received at the same moment (neither acknowledged yet) may be stored in either
 * order; an event received after another was acknowledged is always stored after it.
 */
export class InsertBatcher {
  readonly #db: PgDatabase
  readonly #limits: BatchLimits
  readonly #statement: InsertStatement
  #queue: Pending[] = []
  readonly #byKey = new Map<string, Pending>()
  #scheduled = false
  #inFlight = 0
  /** Rows of the last batch sent (see BatchLimits.delayMs). */
  #lastRows = 0
  /** The wait before the next batch, while it runs. */
  #delay: ReturnType<typeof setTimeout> | undefined
  readonly #idle: Array<() => void> = []

  constructor(db: PgDatabase, limits: BatchLimits) {
    this.#db = db
    this.#limits = limits
    // Named (prepared once per connection) only on the pool the store created: a caller's pool
    // may be anything with `query(text, values)`.
    this.#statement = new InsertStatement(db.names, db.settings !== undefined)
  }

  insert(event: NewEvent): Promise<Outcome> {
    if (this.#queue.length >= this.#limits.queued)
      return Promise.reject(
        new WebhookError('PostgreSQL is not keeping up: too many inserts are waiting.', {
          code: 'store_unavailable',
          isRetryable: true,
        }),
      )
    return new Promise((resolve, reject) => {
      const pending: Pending = { event, resolve, reject }
      const first = this.#byKey.get(event.key)
      if (first) {
        first.twins = [...(first.twins ?? []), pending]
        return
      }
      this.#byKey.set(event.key, pending)
      this.#queue.push(pending)
      this.#schedule()
    })
  }

  /** Resolves once no batch is in flight. */
  idle(): Promise<void> {
    if (this.#inFlight === 0 && this.#queue.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.#idle.push(resolve))
  }

  /** Gather what arrives in this turn of the event loop, then send it. */
  #schedule(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    setImmediate(() => {
      this.#scheduled = false
      this.#flush()
    })
  }

  /**
   * Sends what waits, as far as the limits allow; `now`: without the group-commit wait (which
   * ends early once `fill` requests wait: `#shouldWait` is false then).
   */
  #flush(now = false): void {
    if (!now && this.#shouldWait()) {
      this.#delay ??= setTimeout(() => {
        this.#delay = undefined
        this.#flush(true)
      }, this.#limits.delayMs)
      return
    }
    clearTimeout(this.#delay)
    this.#delay = undefined
    const { inFlight, fill } = this.#limits
    while (
      this.#queue.length > 0 &&
      (this.#inFlight === 0 || (this.#inFlight < inFlight && this.#queue.length >= fill))
    ) {
      const group = this.#queue.splice(0, this.#limits.rows)
      this.#lastRows = group.length
      this.#inFlight++
      void this.#send(group).finally(() => {
        this.#inFlight--
        this.#flush()
        if (this.#inFlight === 0 && this.#queue.length === 0) for (const done of this.#idle.splice(0)) done()
      })
    }
  }

  /** The group-commit wait: none in flight, the last batch carried several rows, fewer than `fill` wait. */
  #shouldWait(): boolean {
    const { delayMs, fill } = this.#limits
    const waiting = this.#queue.length
    return delayMs > 0 && this.#inFlight === 0 && this.#lastRows > 1 && waiting > 0 && waiting < fill
  }

  async #send(group: Pending[]): Promise<void> {
    let outcomes: Array<Outcome | WebhookError>
    try {
      outcomes = await this.#insertRows(group.map((p) => p.event))
    } catch (error) {
      outcomes = group.map(() => this.#db.unavailable(error))
    }
    for (const [i, p] of group.entries()) {
      this.#byKey.delete(p.event.key)
      // The requests for the same key that waited for this one: duplicates, or the same failure.
      const twins = p.twins ?? []
      const outcome = outcomes[i]!
      if (typeof outcome === 'string') {
        p.resolve(outcome)
        for (const twin of twins) twin.resolve('duplicate')
      } else {
        p.reject(outcome)
        for (const twin of twins) twin.reject(outcome)
      }
    }
  }

  /**
   * Each event's outcome. When PostgreSQL refuses the statement for what a row holds (a constraint
   * or a trigger of yours, say), the batch is split in halves and each half tried on its own, so
   * only the rows refused fail (each with its error) and the others are stored: one bad row never
   * fails its batch. A failure of the database itself fails the whole batch.
   */
  async #insertRows(events: readonly NewEvent[]): Promise<Array<Outcome | WebhookError>> {
    const pool = await this.#db.pool()
    try {
      const stored = await this.#run(pool, events)
      return events.map((_, i) => (stored === 'all' || stored[i] ? 'inserted' : 'duplicate'))
    } catch (error) {
      if (!refusedForItsRows(error)) throw error
      if (events.length === 1) return [this.#db.unavailable(error)]
      const half = Math.ceil(events.length / 2)
      const first = await this.#insertRows(events.slice(0, half))
      return [...first, ...(await this.#insertRows(events.slice(half)))]
    }
  }

  async #run(pool: PgQueryable, events: readonly NewEvent[]): Promise<boolean[] | 'all'> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#statement.run(pool, events)
      } catch (error) {
        // Another process inserting some of the same new keys in another order: PostgreSQL ended
        // one of the two statements (nothing of it was stored); run it again.
        if (!(attempt < 3 && (error as { code?: unknown }).code === DEADLOCK)) throw error
      }
    }
  }
}

/**
 * Whether PostgreSQL refused the statement for what its rows hold: SQLSTATE classes 22 (data
 * exception), 23 (integrity constraint violation) and 54 (program limit exceeded, e.g. an index
 * entry too large). Not a connection, a timeout or a server failure.
 */
function refusedForItsRows(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code)
}
