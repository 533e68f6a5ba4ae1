import { type EventRow, fromRow } from '../rows.ts'
import type { ClaimedEvent } from '../store.ts'

/** The columns a StoredEvent is read from (see rows.ts): not `*`, so seq and lease_owner stay home. */
export const EVENT_COLUMNS = [
  'key',
  'event_type',
  'body',
  'received_at',
  'status',
  'attempts',
  'next_attempt_at',
  'lease_until',
  'last_error',
  'finished_at',
  'order_key',
  'originals',
] as const satisfies ReadonlyArray<keyof EventRow>

/**
 * A claimed row as the engine returns it: its values in `EVENT_COLUMNS` order. An array, not the
 * object `node:sqlite` makes of a row: that object has slow (dictionary) properties, costly to
 * make, and a structured clone writes each of its column names with each row and the receiving
 * thread reads them again (under load, sending a batch of claimed rows as objects cost about three
 * times as much CPU on the store's thread as sending them as arrays).
 */
export type ClaimRow = [
  key: EventRow['key'],
  event_type: EventRow['event_type'],
  body: EventRow['body'],
  received_at: EventRow['received_at'],
  status: EventRow['status'],
  attempts: EventRow['attempts'],
  next_attempt_at: EventRow['next_attempt_at'],
  lease_until: EventRow['lease_until'],
  last_error: EventRow['last_error'],
  finished_at: EventRow['finished_at'],
  order_key: EventRow['order_key'],
  originals: EventRow['originals'],
]

/**
 * A claimed row as sent: the claim statements return arrays (`setReturnArrays`, see
 * sqlite-statements.ts) on a Node that has it (24 does), objects on older ones.
 */
export function claimRow(row: unknown): ClaimRow {
  if (Array.isArray(row)) return row as unknown as ClaimRow
  const named = row as EventRow
  return EVENT_COLUMNS.map((column) => named[column]) as unknown as ClaimRow
}

export function claimedFrom(row: ClaimRow): ClaimedEvent {
  return fromRow({
    key: row[0],
    event_type: row[1],
    body: row[2],
    received_at: row[3],
    status: row[4],
    attempts: row[5],
    next_attempt_at: row[6],
    lease_until: row[7],
    last_error: row[8],
    finished_at: row[9],
    order_key: row[10],
    originals: row[11],
  }) as ClaimedEvent
}
