import type { DatabaseSync, StatementSync } from 'node:sqlite'
import {
  EDGE_OFFSET,
  edgeOf,
  type PageDialect,
  pageStatements,
  rowValues,
  seekStatement,
  shapeKey,
  shapeOf,
} from '../page-sql.ts'
import type { EventRow } from '../rows.ts'
import type { EventStatus, PageQuery } from '../store.ts'
import { DEFAULT_PAGE } from '../store-checks.ts'

/** What a page read answers across the thread: its rows, and the window's edge (filtered pages). */
export interface PageRows {
  rows: Array<EventRow & { seq: number }>
  edge: number | undefined
}

/** The indexes each status is listed through (sqlite-schema.ts); done events: the table. */
const INDEX: Partial<Record<EventStatus, string>> = { pending: 'due', processing: 'lease', dead: 'dead' }

/** Pages as SQLite reads them, on table `t` (exported for the plan test and the bench). */
export function sqliteDialect(t: string): PageDialect {
  return {
    table: t,
    param: (n) => `?${n}`,
    hint: (status) => (status && INDEX[status] ? ` INDEXED BY ${t}_${INDEX[status]}` : ''),
    bound: (n) => `?${n} + 0`,
  }
}

/**
 * The SQLite store's inspection reads beyond `list` (see page-sql.ts): pages, the position of a
 * time, the oldest pending event. Statements are prepared on first use, one per page shape.
 */
export class SqlitePages {
  readonly #db: DatabaseSync
  readonly #dialect: PageDialect
  readonly #pages = new Map<string, { edge?: StatementSync; rows: StatementSync }>()
  readonly #t: string
  #seek: StatementSync | undefined
  #oldest: StatementSync | undefined

  constructor(db: DatabaseSync, t: string) {
    this.#db = db
    this.#t = t
    this.#dialect = sqliteDialect(t)
  }

  page(query: PageQuery, start: number): PageRows {
    const shape = shapeOf(query)
    const key = shapeKey(shape)
    let statements = this.#pages.get(key)
    if (!statements) {
      const text = pageStatements(this.#dialect, shape)
      statements = {
        rows: this.#db.prepare(text.rows),
        ...(text.edge ? { edge: this.#db.prepare(text.edge) } : {}),
      }
      this.#pages.set(key, statements)
    }
    const edge = statements.edge
      ? edgeOf((statements.edge.get(start, EDGE_OFFSET) as { seq: number } | undefined)?.seq, shape.order)
      : undefined
    const rows = statements.rows.all(
      ...rowValues(query, start, edge, query.limit ?? DEFAULT_PAGE),
    ) as unknown as PageRows['rows']
    return { rows, edge }
  }

  /** The first seq received at or after `time`, or one past the last; undefined when empty. */
  seek(time: number): number | undefined {
    this.#seek ??= this.#db.prepare(seekStatement(this.#dialect))
    const row = this.#seek.get(time) as { lo: number | null } | undefined
    return row?.lo ?? undefined
  }

  oldestPending(): number | null {
    const t = this.#t
    this.#oldest ??= this.#db.prepare(
      `SELECT received_at FROM ${t} WHERE seq = (SELECT min(seq) FROM ${t} INDEXED BY ${t}_due WHERE status = 'pending')`,
    )
    const row = this.#oldest.get() as { received_at: number } | undefined
    return row?.received_at ?? null
  }
}
