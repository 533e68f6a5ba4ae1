import { WebhookError } from '../../errors.ts'
import type { TableNames } from './postgres-names.ts'
import { createPool, type PgQueryable, type PoolSettings } from './postgres-pool.ts'
import { migrate } from './postgres-schema.ts'

/**
 * The connection to the inbox: the pool (created on first use from a URL, or the caller's), the
 * table made ready once, and every failure turned into one retryable `store_unavailable` error
 * with the URL's password removed.
 */
export class PgDatabase {
  readonly names: TableNames
  /** Set when the store creates its own pool (and its LISTEN connections) from a URL. */
  readonly settings: PoolSettings | undefined
  #pool: PgQueryable | undefined
  #ready: Promise<PgQueryable> | undefined
  #closed = false
  readonly #password: string

  constructor(poolOrUrl: PgQueryable | string, names: TableNames, settings: PoolSettings | undefined) {
    this.names = names
    this.settings = settings
    this.#pool = typeof poolOrUrl === 'string' ? undefined : poolOrUrl
    this.#password = typeof poolOrUrl === 'string' ? passwordOf(poolOrUrl) : ''
  }

  /** The pool, with the table created or upgraded (once per store; again after a failure). */
  pool(): Promise<PgQueryable> {
    if (this.#closed)
      return Promise.reject(
        new WebhookError('The PostgreSQL store is closed.', { code: 'store_unavailable', isRetryable: true }),
      )
    this.#ready ??= this.#connect().catch((error: unknown) => {
      this.#ready = undefined
      throw error
    })
    return this.#ready
  }

  async #connect(): Promise<PgQueryable> {
    this.#pool ??= await createPool(this.settings!)
    await migrate(this.#pool, this.names)
    return this.#pool
  }

  async query<R = Record<string, unknown>>(
    text: string,
    values: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await (await this.pool()).query<R>(text, values)
    } catch (error) {
      throw this.unavailable(error)
    }
  }

  /** Every failure of the database as one retryable error, with the URL's password removed. */
  unavailable(error: unknown): WebhookError {
    if (WebhookError.isInstance(error)) return error
    const code = (error as { code?: unknown }).code
    const state = typeof code === 'string' ? ` (${code})` : ''
    const message = String((error as Error)?.message ?? error)
    const text = this.#password.length >= 4 ? message.split(this.#password).join('[REDACTED]') : message
    return new WebhookError(`PostgreSQL failed${state}: ${text}`, {
      code: 'store_unavailable',
      isRetryable: true,
    })
  }

  get closed(): boolean {
    return this.#closed
  }

  /** No new statements; once `drain` is done, ends the pool when the store created it. */
  async close(drain: () => Promise<void>): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await drain()
    if (this.settings && this.#pool?.end) await this.#pool.end()
  }
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password)
  } catch {
    // Not a URL (a libpq key=value string): nothing to take apart.
    return ''
  }
}
