import { backoffDelay, DEFAULT_RETRY, type RetryPolicy } from '@service-sdk/core/internal'
import { WebhookError } from '../../errors.ts'
import type { PgDatabase } from './postgres-database.ts'
import { checkout, createClient, type PgClient } from './postgres-pool.ts'

/** How often the listening connection is checked (a black-holed one never reports an error). */
const CHECK_MS = 10_000
/** Limit on the LISTEN and on each check. */
const CHECK_TIMEOUT_MS = 5_000
/**
 * Reopening a lost listening connection: core's backoff (doubling from 250 ms up to 5 s, with
 * jitter, so workers that lost the database together do not come back together), never giving
 * up: polling finds the events meanwhile.
 */
export const RECONNECT: RetryPolicy = {
  ...DEFAULT_RETRY,
  maxRetries: Number.POSITIVE_INFINITY,
  initialDelayMs: 250,
  maxDelayMs: 5_000,
}

/** The store's listeners (one per started worker), closed with the store. */
export class Subscriptions {
  readonly #db: PgDatabase
  readonly #listeners = new Set<Listener>()

  constructor(db: PgDatabase) {
    this.#db = db
  }

  /** Start listening; resolves to the unsubscribe once the first LISTEN was tried. */
  async add(wake: () => void): Promise<() => Promise<void>> {
    const open = await this.#opener()
    // Without a way to open a dedicated connection, nothing is listened to: polling finds the events.
    if (!open) return async () => {}
    const listener = new Listener({ open, channel: this.#db.names.channel, wake })
    this.#listeners.add(listener)
    await listener.connect()
    return async () => {
      this.#listeners.delete(listener)
      await listener.stop()
    }
  }

  /** How the listener opens its connection, once the table is ready. */
  async #opener(): Promise<(() => Promise<PgClient>) | undefined> {
    const settings = this.#db.settings
    if (!settings) {
      const pool = await this.#db.pool()
      // A pooled connection lost before the listener has it fails its LISTEN: the listener opens another.
      return pool.connect ? () => checkout(pool, () => {}) : undefined
    }
    // Connections of its own: a database not reachable yet is waited for as a lost connection is
    // (the listener tries again); only a closed store refuses.
    await this.#db.pool().catch((error: unknown) => {
      if (this.#db.closed) throw error
    })
    return () => createClient(settings)
  }

  async close(): Promise<void> {
    await Promise.all([...this.#listeners].map((listener) => listener.stop()))
    this.#listeners.clear()
  }
}

export interface ListenerOptions {
  open: () => Promise<PgClient>
  channel: string
  wake: () => void
  /** For tests: the jitter of the reconnect backoff. */
  random?: () => number
}

/**
 * LISTEN on a connection of its own and call `wake` on every notification. A lost connection is
 * opened again (after `RECONNECT`'s backoff), and `wake` is called once it is back, since
 * notifications sent meanwhile are gone.
 */
export class Listener {
  readonly #open: () => Promise<PgClient>
  readonly #channel: string
  readonly #wake: () => void
  readonly #random: () => number
  #client: PgClient | undefined
  #stopped = false
  /** Reconnects in a row that did not get to LISTEN: the backoff's retry number. */
  #failures = 0
  #retry: ReturnType<typeof setTimeout> | undefined
  #check: ReturnType<typeof setInterval> | undefined

  constructor(options: ListenerOptions) {
    this.#open = options.open
    this.#channel = options.channel
    this.#wake = options.wake
    this.#random = options.random ?? Math.random
  }

  async connect(): Promise<void> {
    let client: PgClient
    try {
      client = await this.#open()
    } catch {
      this.#schedule()
      return
    }
    if (this.#stopped) return release(client)
    this.#client = client
    client.on?.('notification', () => this.#wake())
    client.on?.('error', () => this.#drop(client))
    client.on?.('end', () => this.#drop(client))
    try {
      await answered(client, `LISTEN "${this.#channel}"`)
    } catch {
      this.#drop(client)
      return
    }
    // Stopped or dropped meanwhile: that connection is released already.
    if (this.#client !== client) return
    this.#failures = 0
    this.#check = setInterval(() => this.#probe(client), CHECK_MS)
    this.#check.unref?.()
    this.#wake()
  }

  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#retry)
    const client = this.#client
    if (!client) return
    this.#client = undefined
    clearInterval(this.#check)
    await release(client)
  }

  /** A connection that does not answer a `SELECT 1` in time is dropped and opened again. */
  #probe(client: PgClient): void {
    answered(client, 'SELECT 1').catch(() => this.#drop(client))
  }

  #drop(client: PgClient): void {
    if (this.#client !== client) return
    this.#client = undefined
    clearInterval(this.#check)
    void release(client)
    this.#schedule()
  }

  #schedule(): void {
    if (this.#stopped) return
    const delay = backoffDelay(this.#failures++, RECONNECT, undefined, this.#random) ?? RECONNECT.maxDelayMs
    this.#retry = setTimeout(() => void this.connect(), delay)
    this.#retry.unref?.()
  }
}

/**
 * `text` on the listening connection, given up after CHECK_TIMEOUT_MS: the connection has no
 * statement timeout (it waits for notifications), and a black-holed one never answers.
 */
async function answered(client: PgClient, text: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    const error = new WebhookError('The listening connection did not answer in time.', {
      code: 'store_unavailable',
      isRetryable: true,
    })
    timer = setTimeout(() => reject(error), CHECK_TIMEOUT_MS)
    timer.unref?.()
  })
  try {
    await Promise.race([client.query(text), late])
  } finally {
    clearTimeout(timer)
  }
}

/** A pooled connection is discarded (not reused: it was LISTENing); a client of its own is ended. */
async function release(client: PgClient): Promise<void> {
  if (client.release) client.release(true)
  else await client.end?.().catch(() => {})
}
