import { ServiceValidationError } from '@service-sdk/core'
import { withOriginals } from './columns.ts'
import { EVENT_STATUSES, type EventStatus, type StoredEvent } from './store.ts'

/** A row as SQL stores it (both stores use the same column names). */
export interface EventRow {
  key: string
  event_type: string
  body: string
  received_at: number | string
  status: EventStatus
  attempts: number
  next_attempt_at: number | string
  lease_until: number | string | null
  last_error: string | null
  finished_at: number | string | null
  order_key: string | null
  /** The strings held as digests, as JSON (see columns.ts); null when none is. */
  originals: string | null
}

// PostgreSQL returns bigint columns as strings; epoch milliseconds fit a number exactly.
const num = (v: number | string): number => (typeof v === 'number' ? v : Number(v))
const numOrNull = (v: number | string | null): number | null => (v === null ? null : num(v))

export function fromRow(row: EventRow): StoredEvent {
  const event: StoredEvent = {
    key: row.key,
    eventType: row.event_type,
    body: row.body,
    receivedAt: num(row.received_at),
    orderKey: row.order_key ?? null,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: num(row.next_attempt_at),
    leaseUntil: numOrNull(row.lease_until),
    lastError: row.last_error,
    finishedAt: numOrNull(row.finished_at),
  }
  return withOriginals(event, row.originals)
}

export function countsFrom(
  rows: ReadonlyArray<{ status: EventStatus; n: number | string }>,
): Record<EventStatus, number> {
  const counts = Object.fromEntries(EVENT_STATUSES.map((s) => [s, 0])) as Record<EventStatus, number>
  for (const { status, n } of rows) counts[status] = Number(n)
  return counts
}

/** Table names are interpolated into SQL, so only plain identifiers are allowed. */
export function checkTableName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,47}$/.test(name)) {
    throw new ServiceValidationError('store options', [
      { path: 'table', message: `"${name}" is not a plain identifier (letters, digits and _, at most 48)` },
    ])
  }
  return name
}
