import { eventColumns } from '../columns.ts'
import type { NewEvent } from '../store.ts'
import type { TableNames } from './postgres-names.ts'
import type { PgQueryable } from './postgres-pool.ts'

/**
 * A row of the answer: how many rows were new (the same on every row) and, when some of the batch
 * existed already, one new key per row; when all or none were new, one row and no key.
 */
interface InsertRow {
  inserted: number
  key: string | null
}

/** A `pg.Pool`'s query with a config object: `name` makes it a prepared statement per connection. */
type NamedQuery = (config: {
  name: string
  text: string
  values: unknown[]
}) => Promise<{ rows: InsertRow[] }>

/**
 * Joins the bodies of a batch, which PostgreSQL splits again (`string_to_array`). A JSON text
 * never holds this character raw (RFC 8259: control characters in strings are escaped, and
 * outside strings only spaces, tabs and line breaks may appear), and a body that did is sent the
 * other way. Hand-written because the `pg` client's array literal escapes every quote and
 * backslash of every body (JSON is full of quotes) in two passes and builds the literal piece by
 * piece: joining instead took a third off the store's instructions per event (measured with
 * callgrind; the figures are in the README's benchmark section).
 */
const SEPARATOR = '\u001e'

/**
 * The multi-row INSERT of a batch. Its text does not depend on the batch (the rows go as arrays
 * through `unnest`), so on a pool the store created it is a named prepared statement: each
 * connection parses it once and the server plans it from its cache. It answers one row, not one
 * per event: the count of new rows, and the new keys (a row each) only when some of the batch
 * existed already (the rare case), so the client usually reads a row per batch. It notifies
 * listening workers once per batch that stored something (PostgreSQL delivers it after the commit).
 */
export class InsertStatement {
  readonly #channel: string
  /** Bodies joined by SEPARATOR (the usual way), or as a text[] (a body holds SEPARATOR). */
  readonly #joined: { name: string | undefined; text: string }
  readonly #array: { name: string | undefined; text: string }

  /** `named`: only on the store's own `pg.Pool`; a caller's pool gets the plain `query(text, values)`. */
  constructor(names: TableNames, named: boolean) {
    this.#channel = names.channel
    const text = (bodies: string) => `WITH ins AS (
        INSERT INTO ${names.name} (key, event_type, body, received_at, next_attempt_at, order_key, originals)
        SELECT k, t, b, r, r, o, g FROM unnest($1::text[], $2::text[], ${bodies}, $4::bigint[], $5::text[], $7::text[])
          WITH ORDINALITY AS u(k, t, b, r, o, g, i) ORDER BY i
        ON CONFLICT (key) DO NOTHING RETURNING key
      ), stored AS (
        SELECT count(*)::int AS inserted, CASE WHEN count(*) > 0 THEN pg_notify($6::text, '') END AS notified
        FROM ins
      )
      SELECT s.inserted, i.key FROM stored s LEFT JOIN ins i ON s.inserted < cardinality($1::text[])`
    this.#joined = {
      name: named ? `${names.channel}_insert` : undefined,
      text: text('string_to_array($3::text, chr(30))'),
    }
    this.#array = { name: named ? `${names.channel}_insert_a` : undefined, text: text('$3::text[]') }
  }

  /**
   * Runs the INSERT; resolves to whether each event was stored (false: its key existed), or `all`
   * when every event of the batch was new.
   */
  async run(pool: PgQueryable, events: readonly NewEvent[]): Promise<boolean[] | 'all'> {
    const n = events.length
    const keys = new Array<string>(n)
    const types = new Array<string>(n)
    const bodies = new Array<string>(n)
    const times = new Array<number>(n)
    const orderKeys = new Array<string | null>(n)
    const originals = new Array<string | null>(n)
    let joinable = true
    for (let i = 0; i < n; i++) {
      const e = events[i]!
      const columns = eventColumns(e)
      keys[i] = columns.key
      types[i] = columns.eventType
      bodies[i] = columns.body
      times[i] = e.receivedAt
      orderKeys[i] = columns.orderKey
      originals[i] = columns.originals
      if (joinable && columns.body.includes(SEPARATOR)) joinable = false
    }
    const { name, text } = joinable ? this.#joined : this.#array
    const body = joinable ? bodies.join(SEPARATOR) : bodies
    const values = [keys, types, body, times, orderKeys, this.#channel, originals]
    const { rows } = name
      ? await (pool.query as unknown as NamedQuery).call(pool, { name, text, values })
      : await pool.query<InsertRow>(text, values)
    // Number(): a caller's pool may parse integers its own way.
    if (Number(rows[0]?.inserted) === n) return 'all'
    const stored = new Set<string>()
    for (const row of rows) if (row.key !== null) stored.add(row.key)
    return keys.map((key) => stored.has(key))
  }
}
