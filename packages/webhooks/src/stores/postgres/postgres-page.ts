import {
  EDGE_OFFSET,
  edgeOf,
  type PageDialect,
  pageOf,
  pageStatements,
  rowValues,
  seekStatement,
  shapeOf,
  startOf,
} from '../page-sql.ts'
import type { EventRow } from '../rows.ts'
import type { EventPage, PageQuery } from '../store.ts'
import { checkPage, DEFAULT_PAGE } from '../store-checks.ts'
import type { PgDatabase } from './postgres-database.ts'

// The inspection reads beyond `list` (see page-sql.ts): pages through `_status (status, seq)` or
// the primary key, the position of a time, the oldest pending event. One statement each.

/** Pages as PostgreSQL reads them, on the qualified table (exported for the plan test and the bench). */
export const postgresDialect = (table: string): PageDialect => ({
  table,
  param: (n) => `$${n}`,
  hint: () => '',
  bound: (n) => `$${n}`,
})

export async function page(db: PgDatabase, query: PageQuery = {}): Promise<EventPage> {
  checkPage(query, 'page query')
  const d = postgresDialect(db.names.name)
  const start = await startOf(query, async (time) => {
    const { rows } = await db.query<{ lo: string | null }>(seekStatement(d), [time])
    return rows[0]?.lo == null ? undefined : Number(rows[0].lo)
  })
  const shape = shapeOf(query)
  const statements = pageStatements(d, shape)
  let edge: number | undefined
  if (statements.edge) {
    const { rows } = await db.query<{ seq: string }>(statements.edge, [start, EDGE_OFFSET])
    edge = edgeOf(rows[0]?.seq, shape.order)
  }
  const limit = query.limit ?? DEFAULT_PAGE
  const { rows } = await db.query<EventRow & { seq: string }>(
    statements.rows,
    rowValues(query, start, edge, limit),
  )
  return pageOf(rows, limit, edge, shape.order)
}

export async function oldestPending(db: PgDatabase): Promise<number | null> {
  const { rows } = await db.query<{ received_at: string }>(
    `SELECT received_at FROM ${db.names.name} WHERE status = 'pending' ORDER BY seq LIMIT 1`,
  )
  return rows[0] ? Number(rows[0].received_at) : null
}
