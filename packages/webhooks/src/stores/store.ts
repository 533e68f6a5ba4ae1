/**
 * The inbox: where received events wait to be processed. One small interface, so the embedded
 * SQLite store, PostgreSQL and a test double are interchangeable.
 *
 * Life of an event: `pending` (stored, waiting for its first or next attempt) -> `processing`
 * (claimed by a worker under a lease) -> `done`, or back to `pending` with a later
 * `nextAttemptAt` after a failure, or `dead` after the last attempt. A `processing` event whose
 * lease has expired (its worker crashed or hung) can be claimed again.
 */
export type EventStatus = 'pending' | 'processing' | 'done' | 'dead'

export const EVENT_STATUSES: readonly EventStatus[] = ['pending', 'processing', 'done', 'dead']

/** What the receiver stores on arrival. The token is never part of it. */
export interface NewEvent {
  /** The de-duplication key: the eventId, or `sha256:<hex>` of the folder callback's content. */
  key: string
  eventType: string
  /** The raw body, exactly as received (lossless: ids keep every digit, unknown fields stay). */
  body: string
  receivedAt: number
  /**
   * Events with the same order key run one at a time, in the order they were stored (see the
   * receiver's `orderBy`); absent or null: no ordering.
   */
  orderKey?: string | null
  /**
   * Store it already claimed by `owner` until `until` (status `processing`, attempt 1), as a
   * claim would: the in-process worker runs it from what it received, without a claim reading it
   * back. Only on a store that says `leasesOnInsert`, and never with an order key. A duplicate
   * is not leased.
   */
  lease?: ArrivalLease | undefined
}

/** The lease a freshly received event is stored under (see `NewEvent.lease`). */
export interface ArrivalLease {
  owner: string
  until: number
}

export interface StoredEvent extends NewEvent {
  /** The event's order key; null when it has none (not ordered). */
  orderKey: string | null
  status: EventStatus
  /** Attempts started so far (a claim counts as an attempt, even if its worker crashed). */
  attempts: number
  /** When a `pending` event may next be claimed (epoch ms). */
  nextAttemptAt: number
  /** Until when a `processing` event's lease holds (epoch ms). */
  leaseUntil: number | null
  /** The last failure, one line, secrets removed. */
  lastError: string | null
  /** When it became `done` or `dead`. */
  finishedAt: number | null
}

/** A claimed event: run it, then settle it with the same `owner`. */
export interface ClaimedEvent extends StoredEvent {
  status: 'processing'
  leaseUntil: number
}

export interface ClaimOptions {
  /** Identifies the claiming worker; settling requires the same owner (a lost lease is not settled twice). */
  owner: string
  limit: number
  now: number
  leaseMs: number
}

export type Settlement =
  | { status: 'done'; at: number }
  | { status: 'pending'; nextAttemptAt: number; error: string }
  | { status: 'dead'; at: number; error: string }

export interface ListOptions {
  status?: EventStatus
  /** Default 100. */
  limit?: number
  /** Continue after this key (the last key of the previous page). Pages run in arrival order. */
  after?: string
}

export interface RequeueOptions {
  /** These events (any status but `processing`); default: every `dead` event. */
  keys?: readonly string[]
  now: number
  /**
   * With `keys`: only those of the given events in this status (`dead`: a requeue; `done`: a
   * replay). Default: any status but `processing`.
   */
  status?: 'done' | 'dead'
}

/** Which way a page runs: `newest` first (default) or `oldest` first, in the order events were stored. */
export type PageOrder = 'newest' | 'oldest'

/**
 * One page of the inbox (`WebhookStore.page`), by keyset on the order events were stored: a
 * page costs the same at the millionth event as at the first.
 */
export interface PageQuery {
  status?: EventStatus
  /** Only events of this type. */
  eventType?: string
  /** Only events with this order key. */
  orderKey?: string
  /** Default `newest`. */
  order?: PageOrder
  /**
   * Where the first page starts: events received at or before this time (epoch ms), newest
   * first; at or after it, oldest first. Found by arrival order (a binary search on it), so
   * events stored out of time order by more than the receivers' clock skew may fall either side.
   * Ignored with `cursor`.
   */
  from?: number
  /** The `next` of the previous page (opaque). */
  cursor?: string
  /** Events a page holds at most. Default 50, at most 1,000. */
  limit?: number
}

/** What `page()` answers. */
export interface EventPage {
  events: StoredEvent[]
  /** Pass as `cursor` for the next page; absent when nothing is left. */
  next?: string
  /**
   * True when the page stopped after reading its scan budget (`PAGE_SCAN_BUDGET` events) without
   * filling up: with an `eventType` or `orderKey` filter a page reads at most that many events,
   * so that it stays fast; `next` continues the search from where it stopped.
   */
  partial: boolean
}

export interface PruneOptions {
  /** Remove events that finished before this time (epoch ms). */
  before: number
  /** Default `done` only: dead letters are kept until re-queued or pruned explicitly. */
  status?: 'done' | 'dead'
  /**
   * Delete at most this many, oldest first (a scheduled prune deletes in slices, so a write
   * never waits long behind it). Default: every one that matches. A store may delete all.
   */
  limit?: number
}

/**
 * A transaction that settles one event as `done` when it commits (PostgreSQL): a handler's own
 * writes made through `query` commit together with the done mark, or not at all.
 */
export interface StoreTransaction {
  query<R = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>
  /** Mark the event done and commit; false (everything rolled back) when the lease was lost. */
  commitDone(at: number): Promise<boolean>
  rollback(): Promise<void>
}

export interface WebhookStore {
  /**
   * Store an event durably. Resolves only once it would survive a crash; `duplicate` when an
   * event with the same key exists already (in any status), in which case nothing changes.
   */
  insert(event: NewEvent): Promise<'inserted' | 'duplicate'>
  /**
   * Lease up to `limit` events: due `pending` ones, and `processing` ones whose lease expired.
   * An event with an order key is not leased while another event of its key is `processing`, or
   * while an earlier one (stored before it) is `pending`: done and dead events release the key.
   */
  claim(options: ClaimOptions): Promise<ClaimedEvent[]>
  /** Extend a lease held by `owner`; false when it was lost. */
  renew(key: string, owner: string, leaseUntil: number): Promise<boolean>
  /** Record the outcome of an attempt; false (and no change) when `owner` no longer holds the lease. */
  settle(key: string, owner: string, outcome: Settlement): Promise<boolean>
  get(key: string): Promise<StoredEvent | undefined>
  list(options?: ListOptions): Promise<StoredEvent[]>
  counts(): Promise<Record<EventStatus, number>>
  /** Make events `pending` again, due now, with their attempt count reset. Returns how many. */
  requeue(options: RequeueOptions): Promise<number>
  /** Delete finished events. Returns how many. */
  prune(options: PruneOptions): Promise<number>
  close(): Promise<void>
  /**
   * Optional: true when this process's writes apply in the order they were requested (one queue,
   * one connection, as the SQLite store's): a claim requested after an outcome sees that outcome,
   * so the worker claims again once outcomes are requested, without waiting for their commit.
   * Stores whose writes may commit in another order (PostgreSQL's pool) leave it unset.
   */
  readonly writesInOrder?: boolean
  /**
   * Optional: true when `insert` honours `NewEvent.lease` (the SQLite store): the receiver then
   * hands events it stores to its own worker when that has room, one row write instead of two.
   */
  readonly leasesOnInsert?: boolean
  /**
   * Optional (the SQLite, PostgreSQL and memory stores have it; the console and `service-sdk
   * inbox` need it): a page of events, filtered, by keyset on the stores' indexes.
   */
  page?(query: PageQuery): Promise<EventPage>
  /**
   * Optional: when the oldest `pending` event (in arrival order) was received (epoch ms); null
   * when none is pending. For the backlog's age (console, metrics, health).
   */
  oldestPending?(): Promise<number | null>
  /** Optional: reach the database now (readiness); rejects with `store_unavailable` when it cannot. */
  ping?(): Promise<void>
  /**
   * Optional: call `wake` whenever events are stored or re-queued, in this process or another
   * (PostgreSQL LISTEN/NOTIFY), so idle workers need not poll fast. Resolves to an unsubscribe.
   */
  subscribe?(wake: () => void): Promise<() => Promise<void>>
  /**
   * Optional: open a transaction holding the event's row, if `owner` still holds its lease
   * (rejects with `store_unavailable` otherwise). See `HandlerContext.transaction`.
   */
  begin?(key: string, owner: string): Promise<StoreTransaction>
}
