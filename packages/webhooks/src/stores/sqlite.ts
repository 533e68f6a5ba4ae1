import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'
import { WebhookError } from '../errors.ts'
import type {
  ClaimedEvent,
  ClaimOptions,
  EventStatus,
  ListOptions,
  NewEvent,
  PruneOptions,
  RequeueOptions,
  Settlement,
  WebhookStore,
} from '../store.ts'
import { createGroupCommit } from './group-commit.ts'
import { checkTableName, countsFrom, type EventRow, fromRow } from './rows.ts'

export interface SqliteStoreOptions {
  /**
   * How hard a commit works to survive a crash (SQLite `PRAGMA synchronous`, in WAL mode):
   * - `FULL` (default): the WAL is fsynced at every commit; an acknowledged event survives a
   *   process crash, an OS crash and a power cut.
   * - `NORMAL`: survives a process crash (SIGKILL); the last commits can be lost on an OS crash
   *   or power cut.
   * - `EXTRA`: FULL, plus the directory is fsynced too.
   */
  synchronous?: 'FULL' | 'NORMAL' | 'EXTRA'
  /** Default `webhook_events`. */
  table?: string
  /** How long a commit waits for another process holding the write lock. Default 5000 ms. */
  busyTimeoutMs?: number
}

/**
 * The embedded inbox: one SQLite file in WAL mode through `node:sqlite` (Node >= 22.13; no native
 * addon). Concurrent requests share one transaction and one fsync (group commit), so durable
 * ingest does not cost one disk flush per request. One process per file is the intended use;
 * several receivers on one machine can share a file, at the cost of waiting for each other's
 * commits. For several machines, use `postgresStore`.
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): WebhookStore {
  const table = checkTableName(options.table ?? 'webhook_events')
  const synchronous = options.synchronous ?? 'FULL'
  if (!['FULL', 'NORMAL', 'EXTRA'].includes(synchronous)) {
    throw new WebhookError(`sqliteStore: synchronous must be FULL, NORMAL or EXTRA.`, {
      code: 'invalid_options',
    })
  }
  // Loaded on use, so that importing the package never loads node:sqlite for PostgreSQL users.
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite') | undefined
  if (!sqlite) {
    throw new WebhookError('sqliteStore needs node:sqlite (Node >= 22.13).', { code: 'invalid_options' })
  }
  const db: DatabaseSync = new sqlite.DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 5000 })
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous};`)
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${table} (
      seq INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      event_type TEXT NOT NULL,
      body TEXT NOT NULL,
      received_at INTEGER NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending',
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      lease_owner TEXT,
      lease_until INTEGER,
      last_error TEXT,
      finished_at INTEGER
    );
    CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (next_attempt_at, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS ${table}_lease ON ${table} (lease_until) WHERE status = 'processing';
    CREATE INDEX IF NOT EXISTS ${table}_status ON ${table} (status, seq);
  `)

  const sql = (text: string): StatementSync => db.prepare(text)
  const insert = sql(
    `INSERT INTO ${table} (key, event_type, body, received_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO NOTHING`,
  )
  // INDEXED BY: left to itself the planner picks the (status, seq) index and sorts every pending
  // row on each claim, which under load costs more than everything else the receiver does.
  const lease = (index: string, where: string, order: string) =>
    sql(
      `UPDATE ${table} SET status = 'processing', lease_owner = ?, lease_until = ?, attempts = attempts + 1
       WHERE seq IN (SELECT seq FROM ${table} INDEXED BY ${index} WHERE ${where} ORDER BY ${order} LIMIT ?) RETURNING *`,
    )
  const claimExpired = lease(`${table}_lease`, `status = 'processing' AND lease_until <= ?`, 'lease_until')
  const claimDue = lease(
    `${table}_due`,
    `status = 'pending' AND next_attempt_at <= ?`,
    'next_attempt_at, seq',
  )
  const renew = sql(
    `UPDATE ${table} SET lease_until = ? WHERE key = ? AND status = 'processing' AND lease_owner = ?`,
  )
  const settle = sql(
    `UPDATE ${table} SET status = ?, next_attempt_at = coalesce(?, next_attempt_at), last_error = coalesce(?, last_error),
       finished_at = ?, lease_owner = NULL, lease_until = NULL
     WHERE key = ? AND status = 'processing' AND lease_owner = ?`,
  )
  const get = sql(`SELECT * FROM ${table} WHERE key = ?`)
  const counts = sql(`SELECT status, count(*) AS n FROM ${table} GROUP BY status`)
  const seqOf = `coalesce((SELECT seq FROM ${table} WHERE key = ?), 0)`
  const listAll = sql(`SELECT * FROM ${table} WHERE seq > ${seqOf} ORDER BY seq LIMIT ?`)
  const listStatus = sql(`SELECT * FROM ${table} WHERE status = ? AND seq > ${seqOf} ORDER BY seq LIMIT ?`)
  const requeueDead = sql(
    `UPDATE ${table} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL WHERE status = 'dead'`,
  )
  const requeueKey = sql(
    `UPDATE ${table} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL
     WHERE key = ? AND status <> 'processing'`,
  )
  const prune = sql(`DELETE FROM ${table} WHERE status = ? AND finished_at < ?`)

  const writes = createGroupCommit({
    begin: () => db.exec('BEGIN IMMEDIATE'),
    commit: () => db.exec('COMMIT'),
    rollback: () => {
      if (db.isTransaction) db.exec('ROLLBACK')
    },
  })
  let closed = false
  const open = () => {
    if (closed)
      throw new WebhookError('The SQLite store is closed.', { code: 'store_unavailable', isRetryable: true })
  }

  return {
    insert(event: NewEvent) {
      return writes.run(() => {
        const { changes } = insert.run(
          event.key,
          event.eventType,
          event.body,
          event.receivedAt,
          event.receivedAt,
        )
        return changes === 0 ? 'duplicate' : 'inserted'
      })
    },
    claim({ owner, limit, now, leaseMs }: ClaimOptions) {
      return writes.run(() => {
        const until = now + leaseMs
        const rows = claimExpired.all(owner, until, now, limit) as unknown as EventRow[]
        if (rows.length < limit)
          rows.push(...(claimDue.all(owner, until, now, limit - rows.length) as unknown as EventRow[]))
        return rows.map(fromRow) as ClaimedEvent[]
      })
    },
    renew(key, owner, leaseUntil) {
      return writes.run(() => renew.run(leaseUntil, key, owner).changes > 0)
    },
    settle(key: string, owner: string, outcome: Settlement) {
      return writes.run(() => {
        const args: SQLInputValue[] =
          outcome.status === 'pending'
            ? ['pending', outcome.nextAttemptAt, outcome.error, null]
            : [outcome.status, null, outcome.status === 'dead' ? outcome.error : null, outcome.at]
        return settle.run(...args, key, owner).changes > 0
      })
    },
    async get(key) {
      open()
      const row = get.get(key) as EventRow | undefined
      return row ? fromRow(row) : undefined
    },
    async list({ status, limit = 100, after }: ListOptions = {}) {
      open()
      const rows = status ? listStatus.all(status, after ?? null, limit) : listAll.all(after ?? null, limit)
      return (rows as unknown as EventRow[]).map(fromRow)
    },
    async counts() {
      open()
      return countsFrom(counts.all() as unknown as Array<{ status: EventStatus; n: number }>)
    },
    requeue({ keys, now }: RequeueOptions) {
      return writes.run(() => {
        if (!keys) return Number(requeueDead.run(now).changes)
        let n = 0
        for (const key of keys) n += Number(requeueKey.run(now, key).changes)
        return n
      })
    },
    prune({ before, status = 'done' }: PruneOptions) {
      return writes.run(() => Number(prune.run(status, before).changes))
    },
    async close() {
      if (closed) return
      closed = true
      await writes.close()
      db.close()
    },
  } satisfies WebhookStore as WebhookStore
}
