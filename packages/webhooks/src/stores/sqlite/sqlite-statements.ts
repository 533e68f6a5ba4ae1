import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { EventStatus } from '../store.ts'
import { EVENT_COLUMNS } from './sqlite-rows.ts'

/** The prepared statements of the SQLite store, for table `t`. */
export interface Statements {
  insert: StatementSync
  /** An insert already leased (see `NewEvent.lease`): no claim rewrites its row. */
  insertLeased: StatementSync
  claimExpired: StatementSync
  claimDue: StatementSync
  renew: StatementSync
  settle: StatementSync
  /** `settle` to done (most outcomes), its constants written in: half the values to bind. */
  settleDone: StatementSync
  /** `settleDone` by the row's seq (see SqliteEngine's `#leasedSeq`). */
  settleDoneSeq: StatementSync
  get: StatementSync
  counts: StatementSync
  listAll: StatementSync
  /** By status: each with its status written in, so that `dead` uses the `_dead` index. */
  listStatus: Record<EventStatus, StatementSync>
  requeueDead: StatementSync
  requeueKey: StatementSync
  /** `requeueKey` for an event in the given status only (a replay of a done event, a requeue of a dead one). */
  requeueKeyIn: StatementSync
  prune: Record<'done' | 'dead', StatementSync>
}

const COLUMNS = EVENT_COLUMNS.join(', ')

/**
 * A LIMIT taken from a bound value. Not a bare `?`: SQLite's planner (3.53, built into Node 24)
 * reads the value bound to a bare LIMIT parameter when it prepares the statement, so binding it
 * again marks the statement expired and the next run prepares it anew: each claim did so for
 * both its statements, a fifth of the SQLite thread's CPU under load. The planner does not look
 * into `? + 0`, and these statements need no plan chosen by their limit (claims name their index).
 */
const LIMIT = 'LIMIT ? + 0'

export function prepareStatements(db: DatabaseSync, t: string): Statements {
  const sql = (text: string): StatementSync => db.prepare(text)
  const claimRows = (text: string): StatementSync => {
    const statement = db.prepare(text)
    // Added in Node 24: on the older Nodes the package supports, the engine makes the arrays (claimRow).
    statement.setReturnArrays?.(true)
    return statement
  }
  // INDEXED BY: left to itself the planner picks the (status, seq) index and sorts every pending
  // row on each claim, which under load costs more than everything else the receiver does.
  // Claimed rows as arrays (see ClaimRow in sqlite-rows.ts).
  const lease = (index: string, where: string, order: string) =>
    claimRows(
      `UPDATE ${t} SET status = 'processing', lease_owner = ?, lease_until = ?, attempts = attempts + 1
       WHERE seq IN (SELECT seq FROM ${t} INDEXED BY ${index} WHERE ${where} ORDER BY ${order} ${LIMIT}) RETURNING ${COLUMNS}`,
    )
  // Order keys: not while another event of the key is processing or an earlier one pending.
  const inTurn = `(order_key IS NULL OR NOT EXISTS (SELECT 1 FROM ${t} AS o INDEXED BY ${t}_order
    WHERE o.order_key = ${t}.order_key AND o.order_key IS NOT NULL AND o.status IN ('pending', 'processing')
      AND o.seq <> ${t}.seq AND (o.status = 'processing' OR o.seq < ${t}.seq)))`
  const seqOf = `coalesce((SELECT seq FROM ${t} WHERE key = ?), 0)`
  // Pending and processing through their partial indexes (few rows, sorted by seq): left to
  // itself the planner walks the table from the cursor, through every done event kept.
  const listOf = (status: EventStatus, index?: string) =>
    sql(
      `SELECT ${COLUMNS} FROM ${t}${index ? ` INDEXED BY ${index}` : ''} WHERE status = '${status}' AND seq > ${seqOf} ORDER BY seq ${LIMIT}`,
    )
  return {
    insert: sql(
      `INSERT INTO ${t} (key, event_type, body, received_at, next_attempt_at, order_key, originals) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
    ),
    insertLeased: sql(
      `INSERT INTO ${t} (key, event_type, body, received_at, next_attempt_at, originals, status, attempts, lease_owner, lease_until)
       VALUES (?, ?, ?, ?, ?, ?, 'processing', 1, ?, ?) ON CONFLICT (key) DO NOTHING`,
    ),
    claimExpired: lease(
      `${t}_lease`,
      `status = 'processing' AND lease_until <= ? AND ${inTurn}`,
      'lease_until',
    ),
    claimDue: lease(
      `${t}_due`,
      `status = 'pending' AND next_attempt_at <= ? AND ${inTurn}`,
      'next_attempt_at, seq',
    ),
    renew: sql(`UPDATE ${t} SET lease_until = ? WHERE key = ? AND status = 'processing' AND lease_owner = ?`),
    settle: sql(
      `UPDATE ${t} SET status = ?, next_attempt_at = coalesce(?, next_attempt_at), last_error = coalesce(?, last_error),
         finished_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE key = ? AND status = 'processing' AND lease_owner = ?`,
    ),
    settleDone: sql(
      `UPDATE ${t} SET status = 'done', finished_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE key = ? AND status = 'processing' AND lease_owner = ?`,
    ),
    settleDoneSeq: sql(
      `UPDATE ${t} SET status = 'done', finished_at = ?, lease_owner = NULL, lease_until = NULL
       WHERE seq = ? AND status = 'processing' AND lease_owner = ?`,
    ),
    get: sql(`SELECT ${COLUMNS} FROM ${t} WHERE key = ?`),
    // Each count from an index (see sqlite-schema.ts): done is what the others leave.
    counts: sql(
      `SELECT (SELECT count(*) FROM ${t}) AS total, (SELECT count(*) FROM ${t} WHERE status = 'pending') AS pending,
         (SELECT count(*) FROM ${t} WHERE status = 'processing') AS processing,
         (SELECT count(*) FROM ${t} WHERE status = 'dead') AS dead`,
    ),
    listAll: sql(`SELECT ${COLUMNS} FROM ${t} WHERE seq > ${seqOf} ORDER BY seq ${LIMIT}`),
    listStatus: {
      pending: listOf('pending', `${t}_due`),
      processing: listOf('processing', `${t}_lease`),
      done: listOf('done'),
      dead: listOf('dead'),
    },
    requeueDead: sql(
      `UPDATE ${t} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL WHERE status = 'dead'`,
    ),
    requeueKey: sql(
      `UPDATE ${t} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL
       WHERE key = ? AND status <> 'processing'`,
    ),
    requeueKeyIn: sql(
      `UPDATE ${t} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL
       WHERE key = ? AND status = ?`,
    ),
    // Oldest first, at most a limit (-1: all); dead letters through their index.
    prune: {
      done: sql(
        `DELETE FROM ${t} WHERE seq IN (SELECT seq FROM ${t} WHERE status = 'done' AND finished_at < ? ORDER BY seq ${LIMIT})`,
      ),
      dead: sql(
        `DELETE FROM ${t} WHERE seq IN (SELECT seq FROM ${t} INDEXED BY ${t}_dead WHERE status = 'dead' AND finished_at < ? ORDER BY seq ${LIMIT})`,
      ),
    },
  }
}
