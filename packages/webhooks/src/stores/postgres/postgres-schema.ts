import { INDEXED_BYTES } from '../columns.ts'
import type { TableNames } from './postgres-names.ts'
import type { PgQueryable } from './postgres-pool.ts'

/**
 * The inbox table and its indexes, created or upgraded on first use. The statements run as one
 * transaction under an advisory lock per schema, so processes opening the same table (or tables
 * of one schema) at once take turns instead of racing on the catalog or deadlocking on each
 * other's table locks; every step does nothing when already done.
 *
 * Indexes, each for one query:
 * - `_due_free`: unordered events due for a claim, in (due, arrival) order;
 * - `_order_pending`: the waiting events of each order key in arrival order (a claim reads only
 *   the first of each key: its cost follows the number of keys, not the backlog);
 * - `_lease`: events being processed, by lease expiry (expired leases are claimed again);
 * - `_order_busy`: events being processed, by order key (is the key busy?);
 * - `_status`: listing by status in arrival order.
 */
export async function migrate(pool: PgQueryable, names: TableNames): Promise<void> {
  const { name, table, schema } = names
  const ddl = `
    SELECT pg_advisory_xact_lock(${names.migrationLock});
    ${schema ? `CREATE SCHEMA IF NOT EXISTS "${schema}";` : ''}
    CREATE TABLE IF NOT EXISTS ${name} (
      seq bigserial PRIMARY KEY,
      key text NOT NULL UNIQUE,
      event_type text NOT NULL,
      body text NOT NULL,
      received_at bigint NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at bigint NOT NULL,
      lease_owner text,
      lease_until bigint,
      last_error text,
      finished_at bigint,
      order_key text,
      originals text
    );
    ${addOrderKey(name)}
    ${addOriginals(name)}
    CREATE INDEX IF NOT EXISTS ${table}_due_free ON ${name} (next_attempt_at, seq)
      WHERE status = 'pending' AND order_key IS NULL;
    CREATE INDEX IF NOT EXISTS ${table}_order_pending ON ${name} (order_key, seq)
      WHERE status = 'pending' AND order_key IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${table}_lease ON ${name} (lease_until) WHERE status = 'processing';
    CREATE INDEX IF NOT EXISTS ${table}_order_busy ON ${name} (order_key, lease_until)
      WHERE status = 'processing' AND order_key IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${table}_status ON ${name} (status, seq);
    ${dropIndex(schema, `${table}_due`)}
    ${dropIndex(schema, `${table}_order`)}`
  try {
    await pool.query(ddl)
  } catch {
    // A schema created at the same moment by a process running an older version (which takes no
    // lock): its catalog race is lost once, then everything exists.
    await pool.query(ddl)
  }
}

/**
 * A table made before order keys existed gets the column. Only when it is missing (ALTER TABLE
 * locks the whole table even when there is nothing to do).
 */
function addOrderKey(name: string): string {
  return `DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('${name}') AND attname = 'order_key' AND NOT attisdropped)
      THEN ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS order_key text; END IF;
    END $$;`
}

/**
 * A table made before `originals` existed gets the column, and its keys and order keys that an
 * indexed column now holds as a digest (longer than INDEXED_BYTES, or looking like a digest; see
 * columns.ts) are rewritten so, the strings kept in `originals`: a re-delivery of such an event is
 * still found as a duplicate, and order keys still match. PostgreSQL text is well-formed UTF-8
 * without NUL, so the digest is the SHA-256 of its UTF-8, as columns.ts computes it.
 */
function addOriginals(name: string): string {
  const digested = (column: string) =>
    `(octet_length(${column}) > ${INDEXED_BYTES} OR ${column} ~ '^~sha256:[0-9a-f]{64}$')`
  const digest = (column: string) =>
    `CASE WHEN ${digested(column)} THEN '~sha256:' || encode(sha256(convert_to(${column}, 'UTF8')), 'hex') ELSE ${column} END`
  return `DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('${name}') AND attname = 'originals' AND NOT attisdropped)
      THEN
        ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS originals text;
        UPDATE ${name} SET key = ${digest('key')}, order_key = ${digest('order_key')},
          originals = json_strip_nulls(json_build_object(
            'key', CASE WHEN ${digested('key')} THEN key END,
            'orderKey', CASE WHEN ${digested('order_key')} THEN order_key END))::text
        WHERE ${digested('key')} OR ${digested('order_key')};
      END IF;
    END $$;`
}

/** Indexes of earlier versions that no query uses any more (each costs every insert). */
function dropIndex(schema: string | undefined, index: string): string {
  const qualified = schema ? `"${schema}"."${index}"` : `"${index}"`
  return `DO $$ BEGIN
      IF to_regclass('${qualified}') IS NOT NULL THEN DROP INDEX ${qualified}; END IF;
    END $$;`
}
