import { keyColumn, lineColumn } from '../columns.ts'
import { countsFrom, type EventRow, fromRow } from '../rows.ts'
import type {
  EventStatus,
  ListOptions,
  PruneOptions,
  RequeueOptions,
  Settlement,
  StoredEvent,
} from '../store.ts'
import { checkList, checkPrune, checkRequeue } from '../store-checks.ts'
import type { PgDatabase } from './postgres-database.ts'

// The statements on single events and the inspection queries, each one round trip.

export async function renew(
  db: PgDatabase,
  key: string,
  owner: string,
  leaseUntil: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE ${db.names.name} SET lease_until = $1 WHERE key = $2 AND status = 'processing' AND lease_owner = $3`,
    [leaseUntil, keyColumn(key), keyColumn(owner)],
  )
  return (rowCount ?? 0) > 0
}

export async function settle(
  db: PgDatabase,
  key: string,
  owner: string,
  outcome: Settlement,
): Promise<boolean> {
  const values =
    outcome.status === 'pending'
      ? ['pending', outcome.nextAttemptAt, lineColumn(outcome.error), null]
      : [outcome.status, null, outcome.status === 'dead' ? lineColumn(outcome.error) : null, outcome.at]
  const { rowCount } = await db.query(
    `UPDATE ${db.names.name} SET status = $1, next_attempt_at = coalesce($2, next_attempt_at),
       last_error = coalesce($3, last_error), finished_at = $4, lease_owner = NULL, lease_until = NULL
     WHERE key = $5 AND status = 'processing' AND lease_owner = $6`,
    [...values, keyColumn(key), keyColumn(owner)],
  )
  return (rowCount ?? 0) > 0
}

export async function get(db: PgDatabase, key: string): Promise<StoredEvent | undefined> {
  const { rows } = await db.query<EventRow>(`SELECT * FROM ${db.names.name} WHERE key = $1`, [keyColumn(key)])
  return rows[0] ? fromRow(rows[0]) : undefined
}

export async function list(db: PgDatabase, options: ListOptions = {}): Promise<StoredEvent[]> {
  checkList(options, 'list options')
  const { status, limit = 100, after } = options
  const { name } = db.names
  const { rows } = await db.query<EventRow>(
    `SELECT * FROM ${name}
     WHERE ($1::text IS NULL OR status = $1)
       AND seq > coalesce((SELECT seq FROM ${name} WHERE key = $2), 0)
     ORDER BY seq LIMIT $3`,
    [status ?? null, after === undefined ? null : keyColumn(after), limit],
  )
  return rows.map(fromRow)
}

export async function counts(db: PgDatabase): Promise<Record<EventStatus, number>> {
  const { rows } = await db.query<{ status: EventStatus; n: string }>(
    `SELECT status, count(*) AS n FROM ${db.names.name} GROUP BY status`,
  )
  return countsFrom(rows)
}

/** Back to pending, due now; listening workers are told. */
export async function requeue(db: PgDatabase, options: RequeueOptions): Promise<number> {
  checkRequeue(options, 'requeue options')
  const { keys, now, status } = options
  const { name, channel } = db.names
  const { rowCount } = keys
    ? await db.query(
        `UPDATE ${name} SET status = 'pending', attempts = 0, next_attempt_at = $1, finished_at = NULL
         WHERE key = ANY($2::text[]) AND status <> 'processing' AND ($3::text IS NULL OR status = $3)`,
        [now, keys.map(keyColumn), status ?? null],
      )
    : await db.query(
        `UPDATE ${name} SET status = 'pending', attempts = 0, next_attempt_at = $1, finished_at = NULL WHERE status = 'dead'`,
        [now],
      )
  if (rowCount) await db.query('SELECT pg_notify($1, $2)', [channel, ''])
  return rowCount ?? 0
}

/** Oldest first, at most `limit` (all without one: LIMIT NULL). */
export async function prune(db: PgDatabase, options: PruneOptions): Promise<number> {
  checkPrune(options, 'prune options')
  const { before, status = 'done', limit } = options
  const { name } = db.names
  const { rowCount } = await db.query(
    `DELETE FROM ${name} WHERE seq IN (SELECT seq FROM ${name} WHERE status = $1 AND finished_at < $2 ORDER BY seq LIMIT $3)`,
    [status, before, limit ?? null],
  )
  return rowCount ?? 0
}
