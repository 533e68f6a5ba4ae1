import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'

/** What the SQLite store asks of its engine; plain data, so it can cross to a worker thread. */
export type WriteOp =
  | { t: 'insert'; key: string; eventType: string; body: string; receivedAt: number; orderKey: string | null }
  | { t: 'claim'; owner: string; limit: number; now: number; leaseMs: number }
  | { t: 'renew'; key: string; owner: string; leaseUntil: number }
  | {
      t: 'settle'
      key: string
      owner: string
      status: string
      nextAttemptAt: number | null
      error: string | null
      at: number | null
    }
  | { t: 'requeue'; keys: string[] | null; now: number }
  | { t: 'prune'; status: string; before: number }

export type ReadOp =
  | { t: 'get'; key: string }
  | { t: 'list'; status: string | null; after: string | null; limit: number }
  | { t: 'counts' }

export type OpResult = { ok: true; value: unknown } | { ok: false; error: string }

export interface EngineConfig {
  path: string
  table: string
  synchronous: string
  busyTimeoutMs: number
}

export interface Engine {
  /** Every op in one transaction, committed once; `failed` when the commit itself failed. */
  write(ops: WriteOp[]): { results: OpResult[] } | { failed: string }
  read(op: ReadOp): OpResult
  close(): void
}

/**
 * The SQL of the SQLite store. It runs on a worker thread: its source is sent there as text, so
 * it must use nothing from outside its own body (no imports, no module constants).
 */
export function createEngine(config: EngineConfig): Engine {
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite')
  const t = config.table
  const db: DatabaseSync = new sqlite.DatabaseSync(config.path, { timeout: config.busyTimeoutMs })
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${config.synchronous};`)
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${t} (
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
      finished_at INTEGER,
      order_key TEXT
    );
    CREATE INDEX IF NOT EXISTS ${t}_due ON ${t} (next_attempt_at, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS ${t}_lease ON ${t} (lease_until) WHERE status = 'processing';
    CREATE INDEX IF NOT EXISTS ${t}_status ON ${t} (status, seq);
  `)
  // Tables made before order keys existed get the column (another process may add it first).
  const hasOrderKey = () =>
    db.prepare(`SELECT 1 FROM pragma_table_info('${t}') WHERE name = 'order_key'`).get() !== undefined
  if (!hasOrderKey()) {
    try {
      db.exec(`ALTER TABLE ${t} ADD COLUMN order_key TEXT`)
    } catch (error) {
      if (!hasOrderKey()) throw error
    }
  }
  db.exec(
    `CREATE INDEX IF NOT EXISTS ${t}_order ON ${t} (order_key, seq) WHERE order_key IS NOT NULL AND status IN ('pending', 'processing')`,
  )
  const sql = (text: string): StatementSync => db.prepare(text)
  const insert = sql(
    `INSERT INTO ${t} (key, event_type, body, received_at, next_attempt_at, order_key) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
  )
  // INDEXED BY: left to itself the planner picks the (status, seq) index and sorts every pending
  // row on each claim, which under load costs more than everything else the receiver does.
  const lease = (index: string, where: string, order: string) =>
    sql(
      `UPDATE ${t} SET status = 'processing', lease_owner = ?, lease_until = ?, attempts = attempts + 1
       WHERE seq IN (SELECT seq FROM ${t} INDEXED BY ${index} WHERE ${where} ORDER BY ${order} LIMIT ?) RETURNING *`,
    )
  // Order keys: not while another event of the key is processing or an earlier one pending.
  const inTurn = `(order_key IS NULL OR NOT EXISTS (SELECT 1 FROM ${t} AS o INDEXED BY ${t}_order
    WHERE o.order_key = ${t}.order_key AND o.order_key IS NOT NULL AND o.status IN ('pending', 'processing')
      AND o.seq <> ${t}.seq AND (o.status = 'processing' OR o.seq < ${t}.seq)))`
  const claimExpired = lease(
    `${t}_lease`,
    `status = 'processing' AND lease_until <= ? AND ${inTurn}`,
    'lease_until',
  )
  const claimDue = lease(
    `${t}_due`,
    `status = 'pending' AND next_attempt_at <= ? AND ${inTurn}`,
    'next_attempt_at, seq',
  )
  const renew = sql(
    `UPDATE ${t} SET lease_until = ? WHERE key = ? AND status = 'processing' AND lease_owner = ?`,
  )
  const settle = sql(
    `UPDATE ${t} SET status = ?, next_attempt_at = coalesce(?, next_attempt_at), last_error = coalesce(?, last_error),
       finished_at = ?, lease_owner = NULL, lease_until = NULL
     WHERE key = ? AND status = 'processing' AND lease_owner = ?`,
  )
  const get = sql(`SELECT * FROM ${t} WHERE key = ?`)
  const counts = sql(`SELECT status, count(*) AS n FROM ${t} GROUP BY status`)
  const seqOf = `coalesce((SELECT seq FROM ${t} WHERE key = ?), 0)`
  const listAll = sql(`SELECT * FROM ${t} WHERE seq > ${seqOf} ORDER BY seq LIMIT ?`)
  const listStatus = sql(`SELECT * FROM ${t} WHERE status = ? AND seq > ${seqOf} ORDER BY seq LIMIT ?`)
  const requeueDead = sql(
    `UPDATE ${t} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL WHERE status = 'dead'`,
  )
  const requeueKey = sql(
    `UPDATE ${t} SET status = 'pending', attempts = 0, next_attempt_at = ?, finished_at = NULL
     WHERE key = ? AND status <> 'processing'`,
  )
  const prune = sql(`DELETE FROM ${t} WHERE status = ? AND finished_at < ?`)
  // Plain objects: node:sqlite rows have a null prototype, which structured clone would keep as is.
  const plain = (rows: unknown[]) => rows.map((row) => ({ ...(row as object) }))

  function apply(op: WriteOp): unknown {
    switch (op.t) {
      case 'insert':
        return insert.run(op.key, op.eventType, op.body, op.receivedAt, op.receivedAt, op.orderKey)
          .changes === 0
          ? 'duplicate'
          : 'inserted'
      case 'claim': {
        const until = op.now + op.leaseMs
        const rows = claimExpired.all(op.owner, until, op.now, op.limit)
        if (rows.length < op.limit)
          rows.push(...claimDue.all(op.owner, until, op.now, op.limit - rows.length))
        return plain(rows)
      }
      case 'renew':
        return renew.run(op.leaseUntil, op.key, op.owner).changes > 0
      case 'settle': {
        const args: SQLInputValue[] = [op.status, op.nextAttemptAt, op.error, op.at, op.key, op.owner]
        return settle.run(...args).changes > 0
      }
      case 'requeue': {
        if (!op.keys) return Number(requeueDead.run(op.now).changes)
        let n = 0
        for (const key of op.keys) n += Number(requeueKey.run(op.now, key).changes)
        return n
      }
      case 'prune':
        return Number(prune.run(op.status, op.before).changes)
    }
  }

  return {
    write(ops) {
      const results: OpResult[] = []
      try {
        db.exec('BEGIN IMMEDIATE')
        for (const op of ops) {
          // One failing statement (a constraint, say) fails only its own op.
          try {
            results.push({ ok: true, value: apply(op) })
          } catch (error) {
            results.push({ ok: false, error: String((error as Error)?.message ?? error) })
          }
        }
        db.exec('COMMIT')
        return { results }
      } catch (error) {
        try {
          if (db.isTransaction) db.exec('ROLLBACK')
        } catch {}
        return { failed: String((error as Error)?.message ?? error) }
      }
    },
    read(op) {
      try {
        switch (op.t) {
          case 'get': {
            const row = get.get(op.key)
            return { ok: true, value: row ? { ...row } : undefined }
          }
          case 'list': {
            const rows = op.status
              ? listStatus.all(op.status, op.after, op.limit)
              : listAll.all(op.after, op.limit)
            return { ok: true, value: plain(rows) }
          }
          case 'counts':
            return { ok: true, value: plain(counts.all()) }
        }
      } catch (error) {
        return { ok: false, error: String((error as Error)?.message ?? error) }
      }
    },
    close() {
      db.close()
    },
  }
}

export type EngineMessage =
  | { kind: 'write'; id: number; ops: WriteOp[] }
  | { kind: 'read'; id: number; op: ReadOp }
  | { kind: 'close'; id: number }

/** One request to the engine, one reply. Self-contained too: it runs on the worker thread. */
export function respond(engine: Engine, message: EngineMessage): object {
  if (message.kind === 'write') return { id: message.id, ...engine.write(message.ops) }
  if (message.kind === 'read') return { id: message.id, result: engine.read(message.op) }
  engine.close()
  return { id: message.id, closed: true }
}
