import { lineColumn } from './columns.ts'
import { startOf } from './page-sql.ts'
import { countsFrom } from './rows.ts'
import type {
  ClaimedEvent,
  ClaimOptions,
  EventPage,
  EventStatus,
  ListOptions,
  NewEvent,
  PageQuery,
  PruneOptions,
  RequeueOptions,
  Settlement,
  StoredEvent,
} from './store.ts'
import { DEFAULT_PAGE, PAGE_SCAN_BUDGET } from './store-checks.ts'

/**
 * The memory store's events, and what each of its calls does to them (memory.ts checks the
 * arguments and that the store is open first). The map keeps insertion order: arrival order.
 */
export interface Inbox {
  readonly events: Map<string, Entry>
  /** The last arrival position given. */
  seq: number
}

/** A stored event as the memory store keeps it: with its lease owner and its arrival position. */
type Entry = StoredEvent & { owner: string | null; seq: number }

/** An entry as the store answers it: without the owner and the position. */
export function view(e: Entry): StoredEvent {
  const { owner: _owner, seq: _seq, ...rest } = e
  return rest
}

export function insert(inbox: Inbox, event: NewEvent): 'inserted' | 'duplicate' {
  if (inbox.events.has(event.key)) return 'duplicate'
  inbox.events.set(event.key, {
    ...event,
    orderKey: event.orderKey ?? null,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: event.receivedAt,
    leaseUntil: null,
    lastError: null,
    finishedAt: null,
    owner: null,
    seq: ++inbox.seq,
  })
  return 'inserted'
}

export function claim(inbox: Inbox, { owner, limit, now, leaseMs }: ClaimOptions): ClaimedEvent[] {
  const all = [...inbox.events.values()]
  const expired = all
    .filter((e) => e.status === 'processing' && (e.leaseUntil ?? 0) <= now)
    .sort((a, b) => (a.leaseUntil ?? 0) - (b.leaseUntil ?? 0))
  const due = all
    .filter((e) => e.status === 'pending' && e.nextAttemptAt <= now)
    .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
  return [...expired, ...due]
    .filter((e) => mayRun(e, inbox.events.values()))
    .slice(0, limit)
    .map((e) => {
      Object.assign(e, { status: 'processing', owner, leaseUntil: now + leaseMs, attempts: e.attempts + 1 })
      return view(e) as ClaimedEvent
    })
}

/**
 * Whether an event may be leased as far as its order key goes (checked against the state before
 * the claim, as the SQL stores do): no other event of its key processing, none earlier pending.
 */
function mayRun(event: StoredEvent, all: Iterable<StoredEvent>): boolean {
  if (event.orderKey === null) return true
  let earlier = true
  for (const other of all) {
    if (other === event) earlier = false
    else if (other.orderKey !== event.orderKey) continue
    else if (other.status === 'processing' || (earlier && other.status === 'pending')) return false
  }
  return true
}

export function renew(inbox: Inbox, key: string, owner: string, leaseUntil: number): boolean {
  const e = inbox.events.get(key)
  if (e?.status !== 'processing' || e.owner !== owner) return false
  e.leaseUntil = leaseUntil
  return true
}

export function settle(inbox: Inbox, key: string, owner: string, outcome: Settlement): boolean {
  const e = inbox.events.get(key)
  if (e?.status !== 'processing' || e.owner !== owner) return false
  e.status = outcome.status
  e.owner = null
  e.leaseUntil = null
  // As the SQL stores keep it (see columns.ts).
  if (outcome.status === 'pending') {
    e.nextAttemptAt = outcome.nextAttemptAt
    e.lastError = lineColumn(outcome.error)
  } else {
    e.finishedAt = outcome.at
    if (outcome.status === 'dead') e.lastError = lineColumn(outcome.error)
  }
  return true
}

export function list(inbox: Inbox, { status, limit = 100, after }: ListOptions): StoredEvent[] {
  const all = [...inbox.events.values()]
  const start = after === undefined ? 0 : all.findIndex((e) => e.key === after) + 1
  return all
    .slice(start)
    .filter((e) => status === undefined || e.status === status)
    .slice(0, limit)
    .map(view)
}

export function counts(inbox: Inbox): Record<EventStatus, number> {
  const n = new Map<EventStatus, number>()
  for (const e of inbox.events.values()) n.set(e.status, (n.get(e.status) ?? 0) + 1)
  return countsFrom([...n].map(([status, count]) => ({ status, n: count })))
}

export function requeue(inbox: Inbox, { keys, now, status }: RequeueOptions): number {
  let n = 0
  for (const e of inbox.events.values()) {
    const wanted = keys
      ? keys.includes(e.key) && e.status !== 'processing' && (status === undefined || e.status === status)
      : e.status === 'dead'
    if (!wanted) continue
    Object.assign(e, { status: 'pending', attempts: 0, nextAttemptAt: now, finishedAt: null })
    n++
  }
  return n
}

export function prune(inbox: Inbox, options: PruneOptions): number {
  const { before, status = 'done', limit = Number.POSITIVE_INFINITY } = options
  let n = 0
  for (const [key, e] of inbox.events) {
    if (n >= limit) break
    if (e.status === status && (e.finishedAt ?? Number.POSITIVE_INFINITY) < before) {
      inbox.events.delete(key)
      n++
    }
  }
  return n
}

/** `page()`: the same answers as the SQL stores' (page-sql.ts), by filtering all. */
export async function page(inbox: Inbox, query: PageQuery): Promise<EventPage> {
  const all = [...inbox.events.values()]
  const newest = (query.order ?? 'newest') === 'newest'
  const start = await startOf(query, async (time) => {
    if (all.length === 0) return undefined
    return (all.find((e) => e.receivedAt >= time) ?? { seq: all.at(-1)!.seq + 1 }).seq
  })
  const ordered = newest ? [...all].reverse() : all
  const after = ordered.filter((e) => (newest ? e.seq < start : e.seq > start))
  const inStatus = after.filter((e) => query.status === undefined || e.status === query.status)
  const scanned = query.eventType !== undefined || query.orderKey !== undefined
  const window = scanned ? inStatus.slice(0, PAGE_SCAN_BUDGET) : inStatus
  const limit = query.limit ?? DEFAULT_PAGE
  const found = window.filter(
    (e) =>
      (query.eventType === undefined || e.eventType === query.eventType) &&
      (query.orderKey === undefined || e.orderKey === query.orderKey),
  )
  const events = found.slice(0, limit)
  if (found.length > limit)
    return { events: events.map(view), next: String(events.at(-1)!.seq), partial: false }
  if (scanned && inStatus.length > PAGE_SCAN_BUDGET)
    return { events: events.map(view), next: String(window.at(-1)!.seq), partial: true }
  return { events: events.map(view), partial: false }
}

export function oldestPending(inbox: Inbox): number | null {
  for (const e of inbox.events.values()) if (e.status === 'pending') return e.receivedAt
  return null
}
