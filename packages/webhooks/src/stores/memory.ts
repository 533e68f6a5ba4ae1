import { WebhookError } from '../errors.ts'
import { lineColumn } from './columns.ts'
import { startOf } from './page-sql.ts'
import { countsFrom } from './rows.ts'
import type { ClaimedEvent, EventPage, EventStatus, PageQuery, StoredEvent, WebhookStore } from './store.ts'
import {
  checkList,
  checkPage,
  checkPrune,
  checkRequeue,
  DEFAULT_PAGE,
  PAGE_SCAN_BUDGET,
} from './store-checks.ts'

/**
 * An inbox in memory, for unit tests only: everything is lost when the process exits, so an
 * event acknowledged to the sender would be lost too. Its name says so, and it lives on the
 * `/testing` subpath, so that nobody ships it by accident.
 */
export function memoryStoreForTests(): WebhookStore & { readonly size: number } {
  const events = new Map<string, Entry>()
  const view = (e: Entry): StoredEvent => {
    const { owner: _owner, seq: _seq, ...rest } = e
    return rest
  }
  let seq = 0
  let closed = false
  const open = async () => {
    if (closed)
      throw new WebhookError('memoryStoreForTests: the store is closed.', {
        code: 'store_unavailable',
        isRetryable: true,
      })
  }

  return {
    get size() {
      return events.size
    },
    async insert(event) {
      await open()
      if (events.has(event.key)) return 'duplicate'
      events.set(event.key, {
        ...event,
        orderKey: event.orderKey ?? null,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.receivedAt,
        leaseUntil: null,
        lastError: null,
        finishedAt: null,
        owner: null,
        seq: ++seq,
      })
      return 'inserted'
    },
    async claim({ owner, limit, now, leaseMs }) {
      await open()
      const expired = [...events.values()]
        .filter((e) => e.status === 'processing' && (e.leaseUntil ?? 0) <= now)
        .sort((a, b) => (a.leaseUntil ?? 0) - (b.leaseUntil ?? 0))
      const due = [...events.values()]
        .filter((e) => e.status === 'pending' && e.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
      return [...expired, ...due]
        .filter((e) => mayRun(e, events.values()))
        .slice(0, limit)
        .map((e) => {
          Object.assign(e, {
            status: 'processing',
            owner,
            leaseUntil: now + leaseMs,
            attempts: e.attempts + 1,
          })
          return view(e) as ClaimedEvent
        })
    },
    async renew(key, owner, leaseUntil) {
      await open()
      const e = events.get(key)
      if (e?.status !== 'processing' || e.owner !== owner) return false
      e.leaseUntil = leaseUntil
      return true
    },
    async settle(key, owner, outcome) {
      await open()
      const e = events.get(key)
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
    },
    async get(key) {
      await open()
      const e = events.get(key)
      return e ? view(e) : undefined
    },
    async list(options = {}) {
      checkList(options, 'list options')
      const { status, limit = 100, after } = options
      await open()
      const all = [...events.values()]
      const start = after === undefined ? 0 : all.findIndex((e) => e.key === after) + 1
      return all
        .slice(start)
        .filter((e) => status === undefined || e.status === status)
        .slice(0, limit)
        .map(view)
    },
    async counts() {
      await open()
      const n = new Map<EventStatus, number>()
      for (const e of events.values()) n.set(e.status, (n.get(e.status) ?? 0) + 1)
      return countsFrom([...n].map(([status, count]) => ({ status, n: count })))
    },
    async requeue(options) {
      checkRequeue(options, 'requeue options')
      const { keys, now, status } = options
      await open()
      let n = 0
      for (const e of events.values()) {
        const wanted = keys
          ? keys.includes(e.key) && e.status !== 'processing' && (status === undefined || e.status === status)
          : e.status === 'dead'
        if (!wanted) continue
        Object.assign(e, { status: 'pending', attempts: 0, nextAttemptAt: now, finishedAt: null })
        n++
      }
      return n
    },
    async prune(options) {
      checkPrune(options, 'prune options')
      const { before, status = 'done', limit = Number.POSITIVE_INFINITY } = options
      await open()
      let n = 0
      for (const [key, e] of events) {
        if (n >= limit) break
        if (e.status === status && (e.finishedAt ?? Number.POSITIVE_INFINITY) < before) {
          events.delete(key)
          n++
        }
      }
      return n
    },
    async page(query = {}) {
      checkPage(query, 'page query')
      await open()
      return await pageOfEntries([...events.values()], query, view)
    },
    async oldestPending() {
      await open()
      return [...events.values()].find((e) => e.status === 'pending')?.receivedAt ?? null
    },
    async close() {
      closed = true
    },
  }
}

/** A stored event as the memory store keeps it: with its lease owner and its arrival position. */
type Entry = StoredEvent & { owner: string | null; seq: number }

/** `page()` on the memory store: the same answers as the SQL stores' (page-sql.ts), by filtering all. */
async function pageOfEntries(
  all: Entry[],
  query: PageQuery,
  view: (e: Entry) => StoredEvent,
): Promise<EventPage> {
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
  const page = found.slice(0, limit)
  if (found.length > limit) return { events: page.map(view), next: String(page.at(-1)!.seq), partial: false }
  if (scanned && inStatus.length > PAGE_SCAN_BUDGET)
    return { events: page.map(view), next: String(window.at(-1)!.seq), partial: true }
  return { events: page.map(view), partial: false }
}

/**
 * Whether an event may be leased as far as its order key goes (checked against the state before
 * the claim, as the SQL stores do): no other event of its key processing, none earlier pending.
 * The map keeps insertion order, which is arrival order.
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
