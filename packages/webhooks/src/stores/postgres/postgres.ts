import { MAX_TIMER_MS, OptionIssues } from '../../option-checks.ts'
import type { WebhookStore } from '../store.ts'
import { Claimer } from './postgres-claim.ts'
import { PgDatabase } from './postgres-database.ts'
import * as events from './postgres-events.ts'
import { InsertBatcher } from './postgres-insert.ts'
import { Subscriptions } from './postgres-listen.ts'
import { tableNames } from './postgres-names.ts'
import * as pages from './postgres-page.ts'
import type { PgQueryable, PoolSettings } from './postgres-pool.ts'
import { beginEvent } from './postgres-transaction.ts'

export type { PgClient, PgQueryable } from './postgres-pool.ts'

/** Inserts waiting beyond this many are refused at once (503) instead of piling up while the database stalls. */
const MAX_QUEUED_INSERTS = 10_000
/** Rows in one multi-row INSERT at most. */
const MAX_BATCH_ROWS = 500
/** Requests waiting before a second batch starts while one is in flight (see BatchLimits.fill). */
const BATCH_FILL = 32
/** The group-commit wait under load (see BatchLimits.delayMs). */
const COMMIT_DELAY_MS = 1

export interface PostgresStoreOptions {
  /** Default `webhook_events`. */
  table?: string
  /** A schema to create and use (default: the connection's search_path, usually `public`). */
  schema?: string
  /** Pool size when the store creates the pool from a URL. Default 10. */
  max?: number
  /**
   * Multi-row INSERTs this store runs at once, each on a pooled connection: while one commits,
   * the next batch is already on its way. Default 4; keep the pool larger.
   */
  insertsInFlight?: number
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
 * The inbox in PostgreSQL, for receivers and workers on several machines. Inserts that arrive
 * together go as one multi-row statement (group commit), several at once; workers claim with
 * `FOR UPDATE SKIP LOCKED` (see postgres-claim.ts for events with an order key), and are woken
 * by `LISTEN/NOTIFY`. Durable when the server commits durably (`synchronous_commit` on, its
 * default).
 *
 * Pass a `pg.Pool` (yours: the store does not end it) or a connection string (the store creates a
 * pool and ends it on `close()`). `pg` is an optional peer dependency, loaded only here.
 */
export function postgresStore(
  poolOrUrl: PgQueryable | string,
  options: PostgresStoreOptions = {},
): WebhookStore {
  checkOptions(poolOrUrl, options)
  const names = tableNames(options.table ?? 'webhook_events', options.schema)
  const db = new PgDatabase(poolOrUrl, names, poolSettings(poolOrUrl, options))
  const batcher = new InsertBatcher(db, {
    inFlight: options.insertsInFlight ?? 4,
    rows: MAX_BATCH_ROWS,
    fill: BATCH_FILL,
    delayMs: COMMIT_DELAY_MS,
    queued: MAX_QUEUED_INSERTS,
  })
  const claimer = new Claimer(db)
  const subscriptions = new Subscriptions(db)
  return {
    insert: (event) => batcher.insert(event),
    claim: (claim) => claimer.claim(claim),
    renew: (key, owner, leaseUntil) => events.renew(db, key, owner, leaseUntil),
    settle: (key, owner, outcome) => events.settle(db, key, owner, outcome),
    get: (key) => events.get(db, key),
    list: (listOptions) => events.list(db, listOptions),
    counts: () => events.counts(db),
    page: (query) => pages.page(db, query),
    oldestPending: () => pages.oldestPending(db),
    requeue: (requeueOptions) => events.requeue(db, requeueOptions),
    prune: (pruneOptions) => events.prune(db, pruneOptions),
    ping: async () => void (await db.query('SELECT 1')),
    subscribe: (wake) => subscriptions.add(wake),
    async begin(key, owner) {
      try {
        return await beginEvent({
          pool: await db.pool(),
          name: names.name,
          key,
          owner,
          unavailable: (e) => db.unavailable(e),
        })
      } catch (error) {
        throw db.unavailable(error)
      }
    },
    async close() {
      // Inserts in flight finish (and answer); later ones are refused as store_unavailable.
      await db.close(async () => {
        await batcher.idle()
        await subscriptions.close()
      })
    },
  }
}

function poolSettings(
  poolOrUrl: PgQueryable | string,
  options: PostgresStoreOptions,
): PoolSettings | undefined {
  if (typeof poolOrUrl !== 'string') return undefined
  return {
    url: poolOrUrl,
    max: options.max ?? 10,
    statementTimeoutMs: options.statementTimeoutMs ?? 10_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    // An idle connection the server ended: the pool drops it and opens another when needed; the
    // next statement that fails says why.
    onIdleError() {},
  }
}

/** Table and schema names are put into SQL, so only plain identifiers (index names add up to 14 characters). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/

function checkOptions(poolOrUrl: unknown, options: PostgresStoreOptions): void {
  const issues = new OptionIssues('postgresStore options')
  const pool = poolOrUrl as PgQueryable | null
  if (typeof poolOrUrl !== 'string' && typeof pool?.query !== 'function')
    issues.add('poolOrUrl', 'must be a connection string or a pg.Pool')
  if (issues.object('options', options ?? {})) {
    issues.number('max', options.max, { integer: true, min: 1, max: 10_000 })
    issues.number('insertsInFlight', options.insertsInFlight, { integer: true, min: 1, max: 1_000 })
    issues.number('statementTimeoutMs', options.statementTimeoutMs, { min: 1, max: MAX_TIMER_MS })
    issues.number('connectTimeoutMs', options.connectTimeoutMs, { min: 1, max: MAX_TIMER_MS })
    for (const option of ['table', 'schema'] as const) {
      const value = options[option]
      if (value !== undefined && !(typeof value === 'string' && IDENTIFIER.test(value)))
        issues.add(option, 'must be letters, digits and _ (at most 48, not starting with a digit)')
    }
  }
  issues.throwIfAny()
}
