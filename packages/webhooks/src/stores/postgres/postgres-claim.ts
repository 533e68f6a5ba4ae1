import { keyColumn } from '../columns.ts'
import { type EventRow, fromRow } from '../rows.ts'
import type { ClaimedEvent, ClaimOptions } from '../store.ts'
import type { PgDatabase } from './postgres-database.ts'
import type { TableNames } from './postgres-names.ts'

type ClaimRow = EventRow & { ord: string | null; ordered: boolean }

/**
 * Claims on PostgreSQL. Two ways, chosen by whether the table holds events with an order key:
 *
 * - **Unordered events only** (`freeClaim`): one statement, `FOR UPDATE SKIP LOCKED`, no lock
 *   between workers: they never wait for each other and never take the same event.
 * - **Ordered events present** (`orderedClaim`): the claim runs under a transaction-level
 *   advisory lock, taken by a statement of its own before the claim's statement, so that
 *   statement's snapshot sees every earlier claim committed. Without it, two workers whose
 *   snapshots straddle each other's commits could each take a different event of one key (the
 *   row locks of `SKIP LOCKED` protect one row, not a key). Only the first waiting event of each
 *   key is read (`_order_pending`, one index probe per key), so a claim costs the same however
 *   deep the backlog behind the keys.
 *
 * Each claim's result says whether ordered events exist, which picks the next claim's way.
 */
export class Claimer {
  readonly #db: PgDatabase
  /** Whether the last claim saw events with an order key (assumed at first). */
  #ordered = true

  constructor(db: PgDatabase) {
    this.#db = db
  }

  async claim(options: ClaimOptions): Promise<ClaimedEvent[]> {
    if (this.#ordered) return this.#take(await this.#orderedClaim(options))
    const free = this.#take(
      await this.#db.query<ClaimRow>(freeClaimSql(this.#db.names), claimValues(options)),
    )
    if (!this.#ordered || free.length >= options.limit) return free
    // Ordered events appeared since the last claim: the rest of this batch comes from them too.
    const more = this.#take(await this.#orderedClaim({ ...options, limit: options.limit - free.length }))
    return [...free, ...more]
  }

  async #orderedClaim(options: ClaimOptions): Promise<{ rows: ClaimRow[] }> {
    // Two statements in one simple query: one implicit transaction (the lock is held until the
    // claim commits), and a snapshot per statement. Hence literals instead of parameters.
    const result = (await this.#db.query<ClaimRow>(orderedClaimSql(this.#db.names, options))) as
      | { rows: ClaimRow[] }
      | Array<{ rows: ClaimRow[] }>
    return Array.isArray(result) ? result[result.length - 1]! : result
  }

  #take({ rows }: { rows: ClaimRow[] }): ClaimedEvent[] {
    this.#ordered = rows[0]?.ordered ?? true
    return rows
      .filter((row) => row.ord !== null)
      .sort((a, b) => Number(a.ord) - Number(b.ord))
      .map((row) => fromRow(row) as ClaimedEvent)
  }
}

function claimValues({ owner, limit, now, leaseMs }: ClaimOptions): unknown[] {
  return [keyColumn(owner), now + leaseMs, now, limit]
}

/** Expired leases first (their workers died), then due events in arrival order. */
function freeClaimSql({ name }: TableNames): string {
  return `WITH expired AS (
      SELECT seq, 0 AS kind, lease_until AS due FROM ${name}
      WHERE status = 'processing' AND lease_until <= $3 AND order_key IS NULL
      ORDER BY lease_until LIMIT $4 FOR UPDATE SKIP LOCKED
    ), ready AS (
      SELECT seq, 1 AS kind, next_attempt_at AS due FROM ${name}
      WHERE status = 'pending' AND order_key IS NULL AND next_attempt_at <= $3
      ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED
    ), picked AS (
      SELECT seq, row_number() OVER (ORDER BY kind, due, seq) AS ord
      FROM (SELECT * FROM expired UNION ALL SELECT * FROM ready) AS c ORDER BY ord LIMIT $4
    ), ${claimedCte(name, '$1', '$2')}
    ${withProbe(name)}`
}

/**
 * The same, with ordered events: the first waiting event of each key whose key has no event in
 * flight, and an ordered event whose lease expired when its key has no live lease.
 */
function orderedClaimSql(names: TableNames, options: ClaimOptions): string {
  const { name } = names
  const now = integer(options.now)
  const limit = integer(options.limit)
  return `SELECT pg_advisory_xact_lock(${names.claimLock});
    WITH RECURSIVE heads AS (
      (SELECT order_key, seq, next_attempt_at FROM ${name}
       WHERE status = 'pending' AND order_key IS NOT NULL ORDER BY order_key, seq LIMIT 1)
      UNION ALL
      SELECT n.order_key, n.seq, n.next_attempt_at FROM heads AS h CROSS JOIN LATERAL (
        SELECT order_key, seq, next_attempt_at FROM ${name}
        WHERE status = 'pending' AND order_key IS NOT NULL AND order_key > h.order_key
        ORDER BY order_key, seq LIMIT 1) AS n
    ), candidates AS (
      (SELECT seq, 0 AS kind, lease_until AS due FROM ${name}
       WHERE status = 'processing' AND lease_until <= ${now} AND order_key IS NULL ORDER BY lease_until LIMIT ${limit})
      UNION ALL
      (SELECT DISTINCT ON (order_key) seq, 0 AS kind, lease_until AS due FROM ${name} AS x
       WHERE status = 'processing' AND lease_until <= ${now} AND order_key IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM ${name} AS b WHERE b.status = 'processing'
           AND b.order_key = x.order_key AND b.lease_until > ${now})
       ORDER BY order_key, seq)
      UNION ALL
      (SELECT seq, 1 AS kind, next_attempt_at AS due FROM ${name}
       WHERE status = 'pending' AND order_key IS NULL AND next_attempt_at <= ${now}
       ORDER BY next_attempt_at, seq LIMIT ${limit})
      UNION ALL
      (SELECT seq, 1 AS kind, next_attempt_at AS due FROM heads AS h WHERE next_attempt_at <= ${now}
         AND NOT EXISTS (SELECT 1 FROM ${name} AS b WHERE b.status = 'processing' AND b.order_key = h.order_key))
    ), locked AS (
      SELECT e.seq, c.kind, c.due FROM candidates AS c JOIN ${name} AS e ON e.seq = c.seq
      WHERE (e.status = 'pending' AND e.next_attempt_at <= ${now})
         OR (e.status = 'processing' AND e.lease_until <= ${now})
      ORDER BY c.kind, c.due, c.seq LIMIT ${limit} FOR UPDATE OF e SKIP LOCKED
    ), picked AS (
      SELECT seq, row_number() OVER (ORDER BY kind, due, seq) AS ord FROM locked
    ), ${claimedCte(name, literal(keyColumn(options.owner)), String(integer(options.now + options.leaseMs)))}
    ${withProbe(name)}`
}

function claimedCte(name: string, owner: string, leaseUntil: string): string {
  return `claimed AS (
      UPDATE ${name} AS e SET status = 'processing', lease_owner = ${owner}, lease_until = ${leaseUntil},
        attempts = e.attempts + 1
      FROM picked WHERE e.seq = picked.seq
      RETURNING e.*, picked.ord
    )`
}

/** The claimed rows, each with whether ordered events exist; one row of nulls when none was claimed. */
function withProbe(name: string): string {
  return `SELECT c.*, p.ordered FROM (SELECT
      EXISTS (SELECT 1 FROM ${name} WHERE status = 'pending' AND order_key IS NOT NULL)
      OR EXISTS (SELECT 1 FROM ${name} WHERE status = 'processing' AND order_key IS NOT NULL) AS ordered
    ) AS p LEFT JOIN claimed AS c ON true`
}

/** Epoch milliseconds and counts, as SQL literals (bigint columns hold whole numbers). */
function integer(n: number): number {
  return Math.floor(Number(n))
}

/** A string as an SQL literal (as `pg`'s escapeLiteral does). */
function literal(text: string): string {
  const quoted = `'${text.replaceAll("'", "''")}'`
  return text.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted
}
