import type { DatabaseSync } from 'node:sqlite'
import { eventColumns, INDEXED_BYTES } from '../columns.ts'

/**
 * Creates the inbox table and its indexes if missing; upgrades a table made by an earlier release
 * (before order keys; with the `(status, seq)` index; before `originals`).
 *
 * Every index a status change touches costs each event's claim and outcome an index entry
 * removed and one added, so statuses are indexed only where a query needs it, with partial
 * indexes: `_due` (pending), `_lease` (processing), `_dead` (dead letters, listed and pruned).
 * Counts read those and the key index (done = all - the rest); pending and processing events are
 * listed through their indexes, done ones by walking the table in `seq` order (they are most
 * rows).
 */
export function ensureSchema(db: DatabaseSync, t: string): void {
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
      order_key TEXT,
      originals TEXT
    );
    CREATE INDEX IF NOT EXISTS ${t}_due ON ${t} (next_attempt_at, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS ${t}_lease ON ${t} (lease_until) WHERE status = 'processing';
    CREATE INDEX IF NOT EXISTS ${t}_dead ON ${t} (seq) WHERE status = 'dead';
    DROP INDEX IF EXISTS ${t}_status;
  `)
  // Tables made before order keys existed get the column (another process may add it first).
  if (!hasColumn(db, t, 'order_key')) {
    try {
      db.exec(`ALTER TABLE ${t} ADD COLUMN order_key TEXT`)
    } catch (error) {
      if (!hasColumn(db, t, 'order_key')) throw error
    }
  }
  if (!hasColumn(db, t, 'originals')) addOriginals(db, t)
  db.exec(
    `CREATE INDEX IF NOT EXISTS ${t}_order ON ${t} (order_key, seq) WHERE order_key IS NOT NULL AND status IN ('pending', 'processing')`,
  )
}

function hasColumn(db: DatabaseSync, t: string, column: string): boolean {
  return db.prepare(`SELECT 1 FROM pragma_table_info('${t}') WHERE name = ?`).get(column) !== undefined
}

/**
 * A table made before `originals` existed gets the column, and its keys and order keys that an
 * indexed column now holds as a digest (longer than INDEXED_BYTES, holding a NUL, or looking like
 * a digest; see columns.ts) are rewritten so, the strings kept in `originals`: a re-delivery of
 * such an event is still found as a duplicate, and order keys still match. In one transaction,
 * which another process opening the file waits for (then finds the column).
 */
function addOriginals(db: DatabaseSync, t: string): void {
  db.exec('BEGIN IMMEDIATE')
  try {
    if (!hasColumn(db, t, 'originals')) {
      db.exec(`ALTER TABLE ${t} ADD COLUMN originals TEXT`)
      const digested = (column: string) =>
        `length(CAST(${column} AS BLOB)) > ${INDEXED_BYTES} OR instr(CAST(${column} AS BLOB), X'00') > 0 OR ${column} GLOB '~sha256:*'`
      const rows = db
        .prepare(`SELECT seq, key, order_key FROM ${t} WHERE ${digested('key')} OR ${digested('order_key')}`)
        .all() as Array<{ seq: number; key: string; order_key: string | null }>
      const update = db.prepare(`UPDATE ${t} SET key = ?, order_key = ?, originals = ? WHERE seq = ?`)
      for (const row of rows) {
        const columns = eventColumns({
          key: row.key,
          eventType: '',
          body: '',
          receivedAt: 0,
          orderKey: row.order_key,
        })
        update.run(columns.key, columns.orderKey, columns.originals, row.seq)
      }
    }
    db.exec('COMMIT')
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}
