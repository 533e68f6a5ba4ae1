import { createHash } from 'node:crypto'
import { ServiceValidationError } from '@service-sdk/core'
import { WebhookError } from '../errors.ts'
import type { ClaimedEvent, EventStatus, NewEvent, StoredEvent, WebhookStore } from '../store.ts'
import { subscribe } from './postgres-listen.ts'
import { createPool, type PgQueryable, type PoolSettings } from './postgres-pool.ts'
import { beginEvent } from './postgres-transaction.ts'
import { checkTableName, countsFrom, type EventRow, fromRow } from './rows.ts'

export type { PgClient, PgQueryable } from './postgres-pool.ts'

/** Inserts waiting beyond this many are refused at once (503) instead of piling up while the database stalls. */
const MAX_QUEUED_INSERTS = 10_000

export interface PostgresStoreOptions {
  /** Default `webhook_events`. */
  table?: string
  /** A schema to create and use (default: the connection's search_path, usually `public`). */
  schema?: string
  /** Pool size when the store creates the pool from a URL. Default 10. */
  max?: number
  /**
   * Limit on every statement, when the store creates the pool: the server cancels it, and the
   * client gives up one second later if no answer comes (a stalled or black-holed database).
   * Default 10 s. On your own pool, set `statement_timeout` and `query_timeout` in its config.
   */
  statementTimeoutMs?: number
  /** Limit on opening a connection or waiting for a free one, when the store creates the pool. Default 5 s. */
  connectTimeoutMs?: number
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
  for (const option of ['max', 'statementTimeoutMs', 'connectTimeoutMs'] as const) {
    const value = options[option]
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      throw new ServiceValidationError('postgresStore options', [
        { path: option, message: 'must be a positive number' },
      ])
  }
  const table = checkTableName(options.table ?? 'webhook_events')
  const schema = options.schema === undefined ? undefined : checkTableName(options.schema)
  const name = schema ? `"${schema}"."${table}"` : `"${table}"`
  // NOTIFY channel: one per table, short enough for an identifier whatever the names.
  const channel = `webhooks_${createHash('sha256').update(name).digest('hex').slice(0, 24)}`
  const url = typeof poolOrUrl === 'string' ? poolOrUrl : undefined
  const hide = passwordHider(url)
  const settings: PoolSettings | undefined = url
    ? {
        url,
        max: options.max ?? 10,
        statementTimeoutMs: options.statementTimeoutMs ?? 10_000,
        connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
        // An idle connection the server ended: the pool drops it and opens another when needed;
        // the next statement that fails says why.
        onIdleError() {},
      }
    : undefined
  let pool: PgQueryable | undefined = url ? undefined : (poolOrUrl as PgQueryable)
  let closed = false
  let ready: Promise<PgQueryable> | undefined

  async function connect(): Promise<PgQueryable> {
    pool ??= await createPool(settings!)
    // A table made before order keys existed gets the column. Only when it is missing (ALTER TABLE
    // locks the whole table even when there is nothing to do), and before the CREATE INDEX
    // statements take their lock in the same transaction (two processes upgrading at once would
    // deadlock on the lock upgrade).
    const addOrderKey = `DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('${name}') AND attname = 'order_key' AND NOT attisdropped)
        THEN ALTER TABLE ${name} ADD COLUMN IF NOT EXISTS order_key text; END IF;
      END $$;`
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
        finished_at bigint,
        order_key text
      );
      ${addOrderKey}
      CREATE INDEX IF NOT EXISTS ${table}_due ON ${name} (next_attempt_at, seq) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS ${table}_lease ON ${name} (lease_until) WHERE status = 'processing';
      CREATE INDEX IF NOT EXISTS ${table}_status ON ${name} (status, seq);
      CREATE INDEX IF NOT EXISTS ${table}_order ON ${name} (order_key, seq)
        WHERE order_key IS NOT NULL AND status IN ('pending', 'processing');`
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

  /** Every failure of the database as one retryable error, with the URL's password removed. */
  function unavailable(error: unknown): WebhookError {
    if (WebhookError.isInstance(error)) return error
    const code = (error as { code?: unknown }).code
    const state = typeof code === 'string' ? ` (${code})` : ''
    return new WebhookError(`PostgreSQL failed${state}: ${hide((error as Error).message)}`, {
      code: 'store_unavailable',
      isRetryable: true,
    })
  }

  async function query<R = EventRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await (await db()).query<R>(text, values)
    } catch (error) {
      throw unavailable(error)
    }
  }

  // Group commit: inserts wait while a multi-row INSERT is in flight, then go together. The same
  // statement notifies listening workers (folded into one notification per commit).
  let queue: Array<{
    event: NewEvent
    resolve: (r: 'inserted' | 'duplicate') => void
    reject: (e: unknown) => void
  }> = []
  let flushing = 0
  const idle: Array<() => void> = []

  function flush(): void {
    if (flushing > 0 || queue.length === 0) return
    const group = queue
    queue = []
    flushing++
    void (async () => {
      try {
        const { rows } = await query<{ key: string }>(
          `WITH ins AS (
             INSERT INTO ${name} (key, event_type, body, received_at, next_attempt_at, order_key)
             SELECT k, t, b, r, r, o FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $6::text[])
               WITH ORDINALITY AS u(k, t, b, r, o, i) ORDER BY i
             ON CONFLICT (key) DO NOTHING RETURNING key
           )
           SELECT key, pg_notify($5, '') FROM ins`,
          [
            group.map((p) => p.event.key),
            group.map((p) => p.event.eventType),
            group.map((p) => p.event.body),
            group.map((p) => p.event.receivedAt),
            channel,
            group.map((p) => p.event.orderKey ?? null),
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
        flushing--
        flush()
        if (flushing === 0) for (const done of idle.splice(0)) done()
      }
    })()
  }

  const unsubscribes = new Set<() => Promise<void>>()

  return {
    insert(event) {
      if (closed) return db().then(() => 'inserted' as const)
      if (queue.length >= MAX_QUEUED_INSERTS)
        return Promise.reject(
          new WebhookError('PostgreSQL is not keeping up: too many inserts are waiting.', {
            code: 'store_unavailable',
            isRetryable: true,
          }),
        )
      return new Promise((resolve, reject) => {
        queue.push({ event, resolve, reject })
        flush()
      })
    },
    async claim({ owner, limit, now, leaseMs }) {
      // Expired leases first (their workers died), then due events in arrival order. SKIP LOCKED:
      // rows another worker is claiming right now are passed over, not waited for. An event with
      // an order key waits while another of its key is processing or an earlier one pending.
      const inTurn = `(e.order_key IS NULL OR NOT EXISTS (SELECT 1 FROM ${name} AS o
        WHERE o.order_key = e.order_key AND o.status IN ('pending', 'processing') AND o.seq <> e.seq
          AND (o.status = 'processing' OR o.seq < e.seq)))`
      const { rows } = await query<EventRow & { ord: string }>(
        `WITH expired AS (
           SELECT seq, lease_until AS due FROM ${name} AS e
           WHERE status = 'processing' AND lease_until <= $3 AND ${inTurn}
           ORDER BY lease_until LIMIT $4 FOR UPDATE SKIP LOCKED
         ), ready AS (
           SELECT seq, next_attempt_at AS due FROM ${name} AS e
           WHERE status = 'pending' AND next_attempt_at <= $3 AND ${inTurn}
           ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED
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
      if (rowCount) await query('SELECT pg_notify($1, $2)', [channel, ''])
      return rowCount ?? 0
    },
    async prune({ before, status = 'done' }) {
      const { rowCount } = await query(`DELETE FROM ${name} WHERE status = $1 AND finished_at < $2`, [
        status,
        before,
      ])
      return rowCount ?? 0
    },
    async ping() {
      await query('SELECT 1')
    },
    async subscribe(wake) {
      const pg = await db()
      const stop = await subscribe({ pool: pg, settings, channel, wake })
      unsubscribes.add(stop)
      return async () => {
        unsubscribes.delete(stop)
        await stop()
      }
    },
    async begin(key, owner) {
      try {
        return await beginEvent({ pool: await db(), name, key, owner, unavailable })
      } catch (error) {
        throw unavailable(error)
      }
    },
    async close() {
      if (closed) return
      closed = true
      if (flushing > 0) await new Promise<void>((resolve) => idle.push(resolve))
      await Promise.all([...unsubscribes].map((stop) => stop()))
      if (url && pool?.end) await pool.end()
    },
  }
}

/** Removes the connection string's password from error text. */
function passwordHider(url: string | undefined): (text: string) => string {
  let password = ''
  try {
    password = url ? decodeURIComponent(new URL(url).password) : ''
  } catch {
    // Not a URL (a libpq key=value string): nothing to take apart.
  }
  return (text) => (password.length >= 4 ? text.split(password).join('[REDACTED]') : text)
}
