import { WebhookError } from '../errors.ts'
import type { ClaimedEvent, EventStatus, NewEvent, StoredEvent, WebhookStore } from '../store.ts'
import { checkTableName, countsFrom, type EventRow, fromRow } from './rows.ts'

/** The part of a `pg.Pool` (or anything like it) the store uses. */
export interface PgQueryable {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>
  end?(): Promise<void>
}

export interface PostgresStoreOptions {
  /** Default `webhook_events`. */
  table?: string
  /** A schema to create and use (default: the connection's search_path, usually `public`). */
  schema?: string
  /** Pool size when the store creates the pool from a URL. Default 10. */
  max?: number
}

/**
 * The inbox in PostgreSQL, for receivers on several machines. Workers claim with
 * `FOR UPDATE SKIP LOCKED`, so they never wait for each other or take the same event; inserts
 * that arrive while one is being committed are sent together as one multi-row statement (group
 * commit). Durable when the server commits durably (`synchronous_commit` on, its default).
 *
 * Pass a `pg.Pool` (yours: the store does not end it) or a connection string (the store creates a
 * pool and ends it on `close()`). `pg` is an optional peer dependency, loaded only here.
 */
export function postgresStore(
  poolOrUrl: PgQueryable | string,
  options: PostgresStoreOptions = {},
): WebhookStore {
  const table = checkTableName(options.table ?? 'webhook_events')
  const schema = options.schema === undefined ? undefined : checkTableName(options.schema)
  const name = schema ? `"${schema}"."${table}"` : `"${table}"`
  let pool: PgQueryable | undefined = typeof poolOrUrl === 'string' ? undefined : poolOrUrl
  let closed = false
  let ready: Promise<PgQueryable> | undefined

  async function connect(): Promise<PgQueryable> {
    if (!pool) {
      let pg: {
        default?: { Pool: new (config: object) => PgQueryable }
        Pool?: new (config: object) => PgQueryable
      }
      try {
        pg = await import('pg')
      } catch (cause) {
        throw new WebhookError('postgresStore needs the `pg` package: npm install pg', {
          code: 'invalid_options',
          cause,
        })
      }
      const Pool = pg.default?.Pool ?? pg.Pool
      if (!Pool)
        throw new WebhookError('postgresStore: the `pg` package has no Pool export.', {
          code: 'invalid_options',
        })
      pool = new Pool({ connectionString: poolOrUrl as string, max: options.max ?? 10 })
    }
    const ddl = `
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
        finished_at bigint
      );
      CREATE INDEX IF NOT EXISTS ${table}_due ON ${name} (next_attempt_at, seq) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS ${table}_lease ON ${name} (lease_until) WHERE status = 'processing';
      CREATE INDEX IF NOT EXISTS ${table}_status ON ${name} (status, seq);`
    try {
      await pool.query(ddl)
    } catch {
      // Two processes creating the same table at once: one of them loses a race on the catalog.
      await pool.query(ddl)
    }
    return pool
  }

  async function db(): Promise<PgQueryable> {
    if (closed)
      throw new WebhookError('The PostgreSQL store is closed.', {
        code: 'store_unavailable',
        isRetryable: true,
      })
    ready ??= connect().catch((error: unknown) => {
      ready = undefined
      throw error
    })
    return ready
  }

  async function query<R = EventRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await (await db()).query<R>(text, values)
    } catch (error) {
      if (WebhookError.isInstance(error)) throw error
      throw new WebhookError(`PostgreSQL failed: ${(error as Error).message}`, {
        code: 'store_unavailable',
        isRetryable: true,
        cause: error,
      })
    }
  }

  // Group commit: inserts wait while one multi-row INSERT is in flight, then go together.
  let queue: Array<{
    event: NewEvent
    resolve: (r: 'inserted' | 'duplicate') => void
    reject: (e: unknown) => void
  }> = []
  let flushing: Promise<void> | undefined

  function flush(): void {
    if (flushing || queue.length === 0) return
    const group = queue
    queue = []
    flushing = (async () => {
      try {
        const { rows } = await query<{ key: string }>(
          `INSERT INTO ${name} (key, event_type, body, received_at, next_attempt_at)
           SELECT k, t, b, r, r FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS u(k, t, b, r)
           ON CONFLICT (key) DO NOTHING RETURNING key`,
          [
            group.map((p) => p.event.key),
            group.map((p) => p.event.eventType),
            group.map((p) => p.event.body),
            group.map((p) => p.event.receivedAt),
          ],
        )
        // A key sent twice in one group is inserted once: the first request wins.
        const inserted = new Set(rows.map((r) => r.key))
        for (const p of group) {
          const won = inserted.delete(p.event.key)
          p.resolve(won ? 'inserted' : 'duplicate')
        }
      } catch (error) {
        for (const p of group) p.reject(error)
      } finally {
        flushing = undefined
        flush()
      }
    })()
  }

  return {
    insert(event) {
      if (closed) return db().then(() => 'inserted' as const)
      return new Promise((resolve, reject) => {
        queue.push({ event, resolve, reject })
        flush()
      })
    },
    async claim({ owner, limit, now, leaseMs }) {
      // Expired leases first (their workers died), then due events in arrival order. SKIP LOCKED:
      // rows another worker is claiming right now are passed over, not waited for.
      const { rows } = await query<EventRow & { ord: string }>(
        `WITH expired AS (
           SELECT seq, lease_until AS due FROM ${name}
           WHERE status = 'processing' AND lease_until <= $3 ORDER BY lease_until LIMIT $4 FOR UPDATE SKIP LOCKED
         ), ready AS (
           SELECT seq, next_attempt_at AS due FROM ${name}
           WHERE status = 'pending' AND next_attempt_at <= $3 ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED
         ), picked AS (
           SELECT seq, row_number() OVER (ORDER BY kind, due, seq) AS ord
           FROM (SELECT seq, 0 AS kind, due FROM expired UNION ALL SELECT seq, 1 AS kind, due FROM ready) AS c
           ORDER BY ord LIMIT $4
         )
         UPDATE ${name} AS e SET status = 'processing', lease_owner = $1, lease_until = $2, attempts = e.attempts + 1
         FROM picked WHERE e.seq = picked.seq
         RETURNING e.*, picked.ord`,
        [owner, now + leaseMs, now, limit],
      )
      return rows.sort((a, b) => Number(a.ord) - Number(b.ord)).map((row) => fromRow(row) as ClaimedEvent)
    },
    async renew(key, owner, leaseUntil) {
      const { rowCount } = await query(
        `UPDATE ${name} SET lease_until = $1 WHERE key = $2 AND status = 'processing' AND lease_owner = $3`,
        [leaseUntil, key, owner],
      )
      return (rowCount ?? 0) > 0
    },
    async settle(key, owner, outcome) {
      const values =
        outcome.status === 'pending'
          ? ['pending', outcome.nextAttemptAt, outcome.error, null]
          : [outcome.status, null, outcome.status === 'dead' ? outcome.error : null, outcome.at]
      const { rowCount } = await query(
        `UPDATE ${name} SET status = $1, next_attempt_at = coalesce($2, next_attempt_at),
           last_error = coalesce($3, last_error), finished_at = $4, lease_owner = NULL, lease_until = NULL
         WHERE key = $5 AND status = 'processing' AND lease_owner = $6`,
        [...values, key, owner],
      )
      return (rowCount ?? 0) > 0
    },
    async get(key): Promise<StoredEvent | undefined> {
      const { rows } = await query(`SELECT * FROM ${name} WHERE key = $1`, [key])
      return rows[0] ? fromRow(rows[0]) : undefined
    },
    async list({ status, limit = 100, after } = {}) {
      const { rows } = await query(
        `SELECT * FROM ${name}
         WHERE ($1::text IS NULL OR status = $1)
           AND seq > coalesce((SELECT seq FROM ${name} WHERE key = $2), 0)
         ORDER BY seq LIMIT $3`,
        [status ?? null, after ?? null, limit],
      )
      return rows.map(fromRow)
    },
    async counts() {
      const { rows } = await query<{ status: EventStatus; n: string }>(
        `SELECT status, count(*) AS n FROM ${name} GROUP BY status`,
      )
      return countsFrom(rows)
    },
    async requeue({ keys, now }) {
      const { rowCount } = keys
        ? await query(
            `UPDATE ${name} SET status = 'pending', attempts = 0, next_attempt_at = $1, finished_at = NULL
             WHERE key = ANY($2::text[]) AND status <> 'processing'`,
            [now, [...keys]],
          )
        : await query(
            `UPDATE ${name} SET status = 'pending', attempts = 0, next_attempt_at = $1, finished_at = NULL WHERE status = 'dead'`,
            [now],
          )
      return rowCount ?? 0
    },
    async prune({ before, status = 'done' }) {
      const { rowCount } = await query(`DELETE FROM ${name} WHERE status = $1 AND finished_at < $2`, [
        status,
        before,
      ])
      return rowCount ?? 0
    },
    async close() {
      if (closed) return
      closed = true
      while (flushing) await flushing
      if (typeof poolOrUrl === 'string' && pool?.end) await pool.end()
    },
  }
}
