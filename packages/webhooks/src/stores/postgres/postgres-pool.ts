import { WebhookError } from '../../errors.ts'

/** The part of a `pg.Pool` (or anything like it) the store uses. */
export interface PgQueryable {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>
  /**
   * A dedicated connection (a pg.Pool has it): for transactions and LISTEN. Called with a
   * callback when the pool takes one (see `checkout`), else its promise is used.
   */
  connect?(callback?: (error: Error | undefined, client?: PgClient) => void): Promise<PgClient> | undefined
  end?(): Promise<void>
}

/** A connection taken from a pool; `release(error)` discards it instead of reusing it. */
export interface PgClient {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>
  release?(error?: Error | boolean): void
  end?(): Promise<void>
  on?(event: 'error' | 'end' | 'notification', listener: (arg?: unknown) => void): unknown
  off?(event: 'error', listener: (arg?: unknown) => void): unknown
}

export interface PoolSettings {
  url: string
  max: number
  /** Server- and client-side limit on every statement, ms. */
  statementTimeoutMs: number
  /** Limit on opening a connection, or waiting for a free one in the pool, ms. */
  connectTimeoutMs: number
  /** Where errors of idle connections go (a server restart, pg_terminate_backend): never a crash. */
  onIdleError(error: Error): void
}

interface PgModule {
  Pool: new (config: object) => PgQueryable & { on(event: 'error', listener: (e: Error) => void): unknown }
  Client: new (config: object) => PgClient & { connect(): Promise<void> }
}

let loaded: Promise<PgModule> | undefined

/**
 * `pg` is an optional peer dependency, imported only when a store is created from a URL. The
 * import sits in a `try`: a bundler that meets it (Next.js's Turbopack bundling this package into
 * an app without `pg`) then reports a missing `pg` as a warning, not a failed build.
 */
async function importPg(): Promise<unknown> {
  try {
    return await import('pg')
  } catch (cause) {
    throw new WebhookError('postgresStore needs the `pg` package: npm install pg', {
      code: 'unsupported_runtime',
      cause,
    })
  }
}

function loadPg(): Promise<PgModule> {
  loaded ??= importPg().then(
    (imported: unknown) => {
      const pg = imported as { default?: PgModule } & Partial<PgModule>
      const mod = pg.default ?? (pg as PgModule)
      if (!mod.Pool || !mod.Client)
        throw new WebhookError('postgresStore: the `pg` package has no Pool export.', {
          code: 'unsupported_runtime',
        })
      return mod
    },
    (error: unknown) => {
      loaded = undefined
      throw error
    },
  )
  return loaded
}

function config(settings: PoolSettings, statementTimeouts: boolean): object {
  return {
    connectionString: settings.url,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    // TCP keepalive: a peer that vanished (failover, a cut cable) is noticed by the kernel.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(statementTimeouts
      ? {
          // The server cancels a statement that runs too long; the client gives up on one whose
          // answer never comes (a black-holed connection), and the pool discards that connection.
          statement_timeout: settings.statementTimeoutMs,
          query_timeout: settings.statementTimeoutMs + 1_000,
        }
      : {}),
  }
}

/** A pool whose every connection has timeouts, and whose idle connections' errors are handled. */
export async function createPool(settings: PoolSettings): Promise<PgQueryable> {
  const { Pool } = await loadPg()
  const pool = new Pool({ ...config(settings, true), max: settings.max, idleTimeoutMillis: 30_000 })
  pool.on('error', settings.onIdleError)
  return pool
}

/**
 * A connection from the pool, with `onError` listening from the moment the pool hands it over.
 * pg-pool takes its own 'error' listener off a connection as it hands it out, in the turn in
 * which the connection became free: the end of the statement before, or of the connection's
 * start-up. Messages that came in the same chunk are read in that turn too, and a FATAL among
 * them (`pg_terminate_backend`, a server shutting down) reaches a connection with no listener
 * left: unhandled, the 'error' event ends the process. A promise would resolve only after that
 * turn; pg-pool calls a callback in it, so the callback is used when the pool takes one.
 */
export function checkout(pool: PgQueryable, onError: (error?: unknown) => void): Promise<PgClient> {
  const { promise, resolve, reject } = Promise.withResolvers<PgClient>()
  let settled = false
  const take = (error: unknown, client?: PgClient) => {
    if (settled) return
    settled = true
    if (error || !client) return reject(error)
    client.on?.('error', onError)
    resolve(client)
  }
  // A pool that ignores the callback returns a promise instead.
  pool.connect!(take)?.then((client) => take(undefined, client), take)
  return promise
}

/** A connection of its own, for LISTEN: no statement timeout (it waits for notifications). */
export async function createClient(settings: PoolSettings): Promise<PgClient> {
  const { Client } = await loadPg()
  const client = new Client(config(settings, false))
  client.on?.('error', (e) => settings.onIdleError(e as Error))
  try {
    await client.connect()
  } catch (error) {
    await client.end?.().catch(() => {})
    throw error
  }
  return client
}
