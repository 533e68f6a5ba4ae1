import { keyColumn, textColumn } from './columns.ts'
import { type EventRow, fromRow } from './rows.ts'
import type { EventPage, EventStatus, PageOrder, PageQuery } from './store.ts'
import { PAGE_SCAN_BUDGET } from './store-checks.ts'

/**
 * The inbox's pages as SQL, for both SQL stores: keyset paging on `seq` (the order events were
 * stored), newest or oldest first, through the index each store keeps for the status asked
 * (SQLite: its partial indexes `_due`, `_lease`, `_dead`, or the table itself; PostgreSQL:
 * `_status (status, seq)`, or the primary key). A filter no index serves (event type, order
 * key) reads at most PAGE_SCAN_BUDGET events from the cursor on: the page answers with what it
 * found there and `next` continues the search (`partial`). The `from` time is turned into a
 * position by a binary search on `seq` (each probe a primary-key seek).
 */
export interface PageDialect {
  /** The qualified table name. */
  table: string
  /** The n-th (1-based) bound value. */
  param(n: number): string
  /** The index to read for a status (SQLite's `INDEXED BY`), or nothing. */
  hint(status: EventStatus | undefined): string
  /** A LIMIT or OFFSET of a bound value (SQLite: `? + 0`, see sqlite-statements.ts). */
  bound(n: number): string
}

/** The shape of a page query: which statement it needs (statements are prepared per shape). */
export interface PageShape {
  status: EventStatus | undefined
  order: PageOrder
  byType: boolean
  byOrderKey: boolean
}

export function shapeOf(query: PageQuery): PageShape {
  return {
    status: query.status,
    order: query.order ?? 'newest',
    byType: query.eventType !== undefined,
    byOrderKey: query.orderKey !== undefined,
  }
}

export const shapeKey = (s: PageShape): string =>
  `${s.status ?? '*'}:${s.order}:${s.byType ? 't' : ''}${s.byOrderKey ? 'k' : ''}`

/** Whether a page of this shape reads a bounded window (a filter no index serves). */
export const scanned = (s: PageShape): boolean => s.byType || s.byOrderKey

/** The position before every event (oldest first) or after every event (newest first). */
export const START: Record<PageOrder, number> = { newest: Number.MAX_SAFE_INTEGER, oldest: 0 }

/**
 * The statements of a page: `edge` (filtered pages only) finds where the window of
 * PAGE_SCAN_BUDGET events from the cursor ends; `rows` reads the page (one row more than asked,
 * to know whether another page follows). Bound values: edge `(cursor, budget - 1)`; rows
 * `(cursor, edge?, eventType?, orderKey?, limit + 1)`, in that order.
 */
export function pageStatements(d: PageDialect, s: PageShape): { edge?: string; rows: string } {
  const before = s.order === 'newest'
  const dir = before ? 'DESC' : 'ASC'
  const where = [...(s.status ? [`status = '${s.status}'`] : []), `seq ${before ? '<' : '>'} ${d.param(1)}`]
  const from = `${d.table}${d.hint(s.status)}`
  let n = 2
  const rowsWhere = [...where]
  let edge: string | undefined
  if (scanned(s)) {
    edge = `SELECT seq FROM ${from} WHERE ${where.join(' AND ')} ORDER BY seq ${dir} LIMIT 1 OFFSET ${d.bound(2)}`
    rowsWhere.push(`seq ${before ? '>=' : '<='} ${d.param(n++)}`)
  }
  if (s.byType) rowsWhere.push(`event_type = ${d.param(n++)}`)
  if (s.byOrderKey) rowsWhere.push(`order_key = ${d.param(n++)}`)
  const rows = `SELECT * FROM ${from} WHERE ${rowsWhere.join(' AND ')} ORDER BY seq ${dir} LIMIT ${d.bound(n)}`
  return edge ? { edge, rows } : { rows }
}

/** The values bound to `rows` (see pageStatements). */
export function rowValues(query: PageQuery, cursor: number, edge: number | undefined, limit: number) {
  return [
    cursor,
    ...(edge === undefined ? [] : [edge]),
    ...(query.eventType === undefined ? [] : [textColumn(query.eventType)]),
    ...(query.orderKey === undefined ? [] : [keyColumn(query.orderKey)]),
    limit + 1,
  ]
}

/**
 * The window's far end for a filtered page: the seq PAGE_SCAN_BUDGET events away, or the last
 * possible one when fewer are left (then the search ends with this page).
 */
export function edgeOf(found: number | string | bigint | undefined, order: PageOrder): number {
  if (found === undefined) return order === 'newest' ? 0 : Number.MAX_SAFE_INTEGER
  return Number(found)
}

export const EDGE_OFFSET = PAGE_SCAN_BUDGET - 1

/**
 * The smallest seq whose event was received at or after the bound time (`?1`/`$1`), or one past
 * the last; by binary search on seq, each probe a primary-key seek. No row when the table is
 * empty. One recursive statement: one round trip on PostgreSQL.
 */
export function seekStatement(d: PageDialect): string {
  const t = d.table
  const probe = (column: string) =>
    `(SELECT ${column} FROM ${t} WHERE seq >= (lo + hi) / 2 ORDER BY seq LIMIT 1)`
  const late = `${probe('received_at')} >= ${d.param(1)}`
  return `WITH RECURSIVE s(lo, hi) AS (
      SELECT min(seq), max(seq) + 1 FROM ${t}
      UNION ALL
      SELECT CASE WHEN ${late} THEN lo ELSE ${probe('seq')} + 1 END,
             CASE WHEN ${late} THEN ${probe('seq')} ELSE hi END
      FROM s WHERE lo < hi
    )
    SELECT lo FROM s WHERE lo >= hi`
}

/** Where a page starts: its cursor, or the position of its `from` time (`seek(t)`, see above). */
export async function startOf(
  query: PageQuery,
  seek: (time: number) => Promise<number | undefined>,
): Promise<number> {
  const order = query.order ?? 'newest'
  if (query.cursor !== undefined) return Number(query.cursor)
  if (query.from === undefined) return START[order]
  // Newest first: events received at or before `from` (seq below the first one after it).
  if (order === 'newest') return (await seek(query.from + 1)) ?? START.newest
  return ((await seek(query.from)) ?? 1) - 1
}

/** A page from the rows read (one more than `limit` when another page follows). */
export function pageOf(
  rows: ReadonlyArray<EventRow & { seq: number | string | bigint }>,
  limit: number,
  edge: number | undefined,
  order: PageOrder,
): EventPage {
  const events = rows.slice(0, limit)
  const last = events.at(-1)
  if (rows.length > limit && last)
    return { events: events.map(fromRow), next: String(last.seq), partial: false }
  // Fewer than asked: the end, unless a filtered page stopped at its window's edge.
  const end = order === 'newest' ? 0 : Number.MAX_SAFE_INTEGER
  // The window's edge was read (a filtered page): the next one continues past it.
  if (edge !== undefined && edge !== end)
    return { events: events.map(fromRow), next: String(edge), partial: true }
  return { events: events.map(fromRow), partial: false }
}
