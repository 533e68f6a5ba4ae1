import type { NewEvent } from '../store.ts'
import type { TableNames } from './postgres-database.ts'
import type { PgQueryable } from './postgres-pool.ts'

/** One row whatever the batch's size: how many rows were new, and their keys when some were not. */
interface InsertResult {
  inserted: number
  keys: string[] | null
}

/** A `pg.Pool`'s query with a config object: `name` makes it a prepared statement per connection. */
type NamedQuery = (config: {
  name: string
  text: string
  values: unknown[]
}) => Promise<{ rows: InsertResult[] }>

/**
 * The multi-row INSERT of a batch. Its text does not depend on the batch (the rows go as arrays
 * through `unnest`), so on a pool the store created it is a named prepared statement: each
 * connection parses it once and the server plans it from its cache. It answers one row, not one
 * per event: the count of new rows, and their keys only when some of the batch existed already
 * (the rare case), so the client reads a row per batch. It notifies listening workers once per
 * batch that stored something (PostgreSQL delivers it after the commit).
 */
export class InsertStatement {
  readonly #text: string
  readonly #channel: string
  readonly #name: string | undefined

  /** `named`: only on the store's own `pg.Pool`; a caller's pool gets the plain `query(text, values)`. */
  constructor(names: TableNames, named: boolean) {
    this.#channel = names.channel
    this.#name = named ? `${names.channel}_insert` : undefined
    this.#text = `WITH ins AS (
        INSERT INTO ${names.name} (key, event_type, body, received_at, next_attempt_at, order_key)
        SELECT k, t, b, r, r, o FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[])
          WITH ORDINALITY AS u(k, t, b, r, o, i) ORDER BY i
        ON CONFLICT (key) DO NOTHING RETURNING key
      )
      SELECT count(*)::int AS inserted,
        CASE WHEN count(*) < cardinality($1::text[]) THEN array_agg(key) END AS keys,
        CASE WHEN count(*) > 0 THEN pg_notify($6::text, '') END AS notified
      FROM ins`
  }

  /** Runs the INSERT; resolves to the keys it stored, or `all` when every event of the batch was new. */
  async run(pool: PgQueryable, events: NewEvent[]): Promise<Set<string> | 'all'> {
    const keys = new Array<string>(events.length)
    const types = new Array<string>(events.length)
    const bodies = new Array<string>(events.length)
    const times = new Array<number>(events.length)
    const orderKeys = new Array<string | null>(events.length)
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!
      keys[i] = e.key
      types[i] = e.eventType
      bodies[i] = e.body
      times[i] = e.receivedAt
      orderKeys[i] = e.orderKey ?? null
    }
    const values = [keys, types, bodies, times, orderKeys, this.#channel]
    const { rows } = this.#name
      ? await (pool.query as unknown as NamedQuery).call(pool, { name: this.#name, text: this.#text, values })
      : await pool.query<InsertResult>(this.#text, values)
    const result = rows[0]
    if (result?.inserted === events.length) return 'all'
    return new Set(result?.keys ?? [])
  }
}
