import type { DatabaseSync } from 'node:sqlite'

/**
 * Creates the inbox table and its indexes if missing; upgrades a table made by an earlier release
 * (before order keys; with the `(status, seq)` index).
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
      order_key TEXT
    );
    CREATE INDEX IF NOT EXISTS ${t}_due ON ${t} (next_attempt_at, seq) WHERE status = 'pending';
    CREATE INDEX IF NOT EXISTS ${t}_lease ON ${t} (lease_until) WHERE status = 'processing';
    CREATE INDEX IF NOT EXISTS ${t}_dead ON ${t} (seq) WHERE status = 'dead';
    DROP INDEX IF EXISTS ${t}_status;
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
}
