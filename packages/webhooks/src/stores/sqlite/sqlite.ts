import { WebhookError } from '../../errors.ts'
import { MAX_TIMER_MS, OptionIssues } from '../../option-checks.ts'
import { eventColumns, keyColumn, lineColumn } from '../columns.ts'
import { pageOf, startOf } from '../page-sql.ts'
import { checkTableName, countsFrom, type EventRow, fromRow } from '../rows.ts'
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
  WebhookStore,
} from '../store.ts'
import { checkList, checkPage, checkPrune, checkRequeue, DEFAULT_PAGE } from '../store-checks.ts'
import { type Channel, mainThreadChannel, workerChannel } from './sqlite-channel.ts'
import type { PageRows } from './sqlite-page.ts'
import {
  type EngineConfig,
  type EngineReply,
  needsSync,
  type ReadOp,
  type WriteOp,
  type WriteOutcome,
} from './sqlite-protocol.ts'
import { type ClaimRow, claimedFrom } from './sqlite-rows.ts'

export interface SqliteStoreOptions {
  /**
   * How hard a commit that stores events (or requeues, or prunes) works to survive a crash
   * (SQLite `PRAGMA synchronous`, in WAL mode). Commits of only claims and outcomes are never
   * fsynced: lost on a power cut, they leave their events to run again.
   * - `FULL` (default): the WAL is fsynced at every such commit; an acknowledged event survives a
   *   process crash, an OS crash and a power cut.
   * - `NORMAL`: survives a process crash (SIGKILL); the last commits can be lost on an OS crash
   *   or power cut.
   * - `EXTRA`: FULL, plus the directory is fsynced too.
   */
  synchronous?: 'FULL' | 'NORMAL' | 'EXTRA'
  /** Default `webhook_events`. */
  table?: string
  /** How long a commit waits for another process holding the write lock. Default 5000 ms. */
  busyTimeoutMs?: number
  /**
   * Where commits run. `'worker'` (default): on a worker thread, so an fsync never blocks the
   * event loop (steadier latency under load). `'main'`: on this thread, blocking it for each
   * commit but saving a thread round trip per commit (less CPU per event).
   */
  thread?: 'worker' | 'main'
}

/**
 * The embedded inbox: one SQLite file in WAL mode through `node:sqlite` (Node >= 22.13; no native
 * addon), driven from a worker thread so that a commit's fsync never blocks the event loop.
 *
 * Group commit: every write requested while a commit is in flight (or during one turn of the
 * event loop; under load up to 1 ms, see COMMIT_DELAY_MS) goes into the next transaction,
 * committed and fsynced once; each caller's promise settles after its own transaction committed. One process per file is the intended use; several
 * receivers on one machine can share a file, at the cost of waiting for each other's commits.
 * For several machines, use `postgresStore`.
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): WebhookStore {
  const config = engineConfig(path, options)
  if (!process.getBuiltinModule?.('node:sqlite')) {
    throw new WebhookError(
      `sqliteStore needs node:sqlite, built into Node 22.13 and later (23.4 on Node 23); this is Node ${process.versions.node}. Upgrade Node, or use postgresStore.`,
      { code: 'unsupported_runtime' },
    )
  }
  return new SqliteStore(config, options.thread ?? 'worker')
}

function engineConfig(path: string, options: SqliteStoreOptions): EngineConfig {
  const issues = new OptionIssues('sqliteStore options')
  if (typeof path !== 'string' || path === '') issues.add('path', 'must be a file path')
  if (issues.object('options', options ?? {})) {
    issues.oneOf('synchronous', options.synchronous, ['FULL', 'NORMAL', 'EXTRA'])
    issues.number('busyTimeoutMs', options.busyTimeoutMs, { integer: true, min: 0, max: MAX_TIMER_MS })
    issues.oneOf('thread', options.thread, ['worker', 'main'])
  }
  issues.throwIfAny()
  return {
    path,
    table: checkTableName(options.table ?? 'webhook_events'),
    synchronous: options.synchronous ?? 'FULL',
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
  }
}

interface Waiter {
  resolve: (value: never) => void
  reject: (error: unknown) => void
}

interface QueuedWrite extends Waiter {
  op: WriteOp
}

/**
 * While events are arriving (an insert requested in the last ARRIVING_MS), a commit of only
 * claims, renewals and outcomes waits up to HOLD_MS for the next insert and commits with it:
 * one transaction and one thread round trip instead of two. At 5,000 events/s the next insert
 * comes within a fraction of a millisecond; when none comes, the hold ends after HOLD_MS.
 */
const HOLD_MS = 2
const ARRIVING_MS = 50
/**
 * Group commit under load: after a commit that stored several events, the next one waits up to
 * COMMIT_DELAY_MS (as PostgreSQL's `commit_delay`), so that the senders just acknowledged can
 * send their next events into it. Without the wait, 64 senders split into two groups that take
 * turns, each commit carrying half of them; with it, one fsync covers all of them, for at most
 * 1 ms of latency. A lone event (the last commit stored one) is not delayed.
 */
const COMMIT_DELAY_MS = 1

const unavailable = (message: string, cause?: unknown) =>
  new WebhookError(`The SQLite store failed: ${message}`, {
    code: 'store_unavailable',
    isRetryable: true,
    cause,
  })

/**
 * The store's state: what is queued for the next commit, what awaits an answer, and whether a
 * commit is in flight. A class because that state is the point (one commit at a time).
 */
class SqliteStore implements WebhookStore {
  /** One queue, one connection, each commit's operations applied in order (see `#send`). */
  readonly writesInOrder = true
  readonly leasesOnInsert = true
  readonly #path: string
  readonly #channel: Channel
  /** Answers awaited, by message id: one waiter for a read, the group for a commit. */
  readonly #waiting = new Map<number, Waiter | QueuedWrite[]>()
  #queue: QueuedWrite[] = []
  #nextId = 0
  #writing = false
  #scheduled = false
  /** The queue holds a write that must be fsynced (an insert, a requeue, a prune). */
  #queuedSync = false
  #lastInsertAt = Number.NEGATIVE_INFINITY
  /** Inserts in the last commit sent (see COMMIT_DELAY_MS). */
  #lastGroupInserts = 0
  /** The timer ending a wait (HOLD_MS or COMMIT_DELAY_MS), and when it fires. */
  #timer: ReturnType<typeof setTimeout> | undefined
  #timerDue = 0
  #closed = false
  #failure: WebhookError | undefined
  #idle: (() => void) | undefined

  constructor(config: EngineConfig, thread: 'worker' | 'main') {
    this.#path = config.path
    const events = {
      reply: (reply: EngineReply) => this.#onReply(reply),
      lost: (message: string, cause?: unknown) => this.#failAll(unavailable(message, cause)),
    }
    this.#channel = thread === 'main' ? mainThreadChannel(config, events) : workerChannel(config, events)
  }

  insert(event: NewEvent): Promise<'inserted' | 'duplicate'> {
    const { receivedAt, lease } = event
    return this.#write({
      t: 'insert',
      ...eventColumns(event),
      receivedAt,
      leaseOwner: lease ? keyColumn(lease.owner) : null,
      leaseUntil: lease?.until ?? null,
    })
  }

  async claim({ owner, limit, now, leaseMs }: ClaimOptions): Promise<ClaimedEvent[]> {
    const rows = await this.#write<ClaimRow[]>({ t: 'claim', owner: keyColumn(owner), limit, now, leaseMs })
    return rows.map(claimedFrom)
  }

  renew(key: string, owner: string, leaseUntil: number): Promise<boolean> {
    return this.#write({ t: 'renew', key: keyColumn(key), owner: keyColumn(owner), leaseUntil })
  }

  settle(key: string, owner: string, outcome: Settlement): Promise<boolean> {
    return this.#write({
      t: 'settle',
      key: keyColumn(key),
      owner: keyColumn(owner),
      status: outcome.status,
      nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      error: outcome.status === 'done' ? null : lineColumn(outcome.error),
      at: outcome.status === 'pending' ? null : outcome.at,
    })
  }

  async get(key: string): Promise<StoredEvent | undefined> {
    const row = await this.#read<EventRow | undefined>({ t: 'get', key: keyColumn(key) })
    return row ? fromRow(row) : undefined
  }

  async list(options: ListOptions = {}): Promise<StoredEvent[]> {
    checkList(options, 'list options')
    const { status, limit = 100, after } = options
    const rows = await this.#read<EventRow[]>({
      t: 'list',
      status: status ?? null,
      after: after === undefined ? null : keyColumn(after),
      limit,
    })
    return rows.map(fromRow)
  }

  async page(query: PageQuery = {}): Promise<EventPage> {
    checkPage(query, 'page query')
    const start = await startOf(query, (time) => this.#read<number | undefined>({ t: 'seek', time }))
    const { rows, edge } = await this.#read<PageRows>({ t: 'page', query, start })
    return pageOf(rows, query.limit ?? DEFAULT_PAGE, edge, query.order ?? 'newest')
  }

  oldestPending(): Promise<number | null> {
    return this.#read<number | null>({ t: 'oldestPending' })
  }

  async counts(): Promise<Record<EventStatus, number>> {
    return countsFrom(await this.#read<Array<{ status: EventStatus; n: number }>>({ t: 'counts' }))
  }

  async requeue(options: RequeueOptions): Promise<number> {
    checkRequeue(options, 'requeue options')
    const { keys, now, status } = options
    return this.#write({ t: 'requeue', keys: keys ? keys.map(keyColumn) : null, now, status: status ?? null })
  }

  async prune(options: PruneOptions): Promise<number> {
    checkPrune(options, 'prune options')
    const { before, status = 'done', limit } = options
    // -1: no limit, to SQLite.
    return this.#write({ t: 'prune', status, before, limit: limit ?? -1 })
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#timer) this.#send()
    if (this.#queue.length > 0 || this.#writing) await new Promise<void>((resolve) => (this.#idle = resolve))
    if (!this.#failure) {
      await new Promise<void>((resolve) => {
        const id = ++this.#nextId
        this.#waiting.set(id, { resolve: () => resolve(), reject: () => resolve() })
        this.#channel.hold(true)
        this.#channel.post({ kind: 'close', id })
      })
    }
    await this.#channel.terminate()
  }

  #refused(): Promise<never> | undefined {
    if (this.#failure) return Promise.reject(this.#failure)
    if (this.#closed) return Promise.reject(unavailable('the store is closed'))
    return undefined
  }

  #write<T>(op: WriteOp): Promise<T> {
    return (
      this.#refused() ??
      new Promise<T>((resolve, reject) => {
        this.#queue.push({ op, resolve: resolve as (value: never) => void, reject })
        if (needsSync(op)) {
          this.#queuedSync = true
          if (op.t === 'insert') this.#lastInsertAt = performance.now()
        }
        this.#holdWhileAwaited()
        // While a commit is in flight, writes gather for the next one.
        this.#schedule(false)
      })
    )
  }

  /**
   * Sends the queue when no commit is in flight: after a wait (see HOLD_MS, COMMIT_DELAY_MS),
   * else `now`, else after this turn (so that the requests read in this turn commit together).
   */
  #schedule(now: boolean): void {
    if (this.#writing || this.#queue.length === 0 || this.#failure) return
    const wait = this.#closed ? 0 : this.#waitMs()
    if (wait > 0) {
      const due = performance.now() + wait
      if (this.#timer && this.#timerDue <= due) return
      clearTimeout(this.#timer)
      this.#timerDue = due
      this.#timer = setTimeout(() => this.#send(), wait)
    } else if (now) this.#send()
    else if (!this.#scheduled) {
      clearTimeout(this.#timer)
      this.#timer = undefined
      this.#scheduled = true
      setImmediate(() => this.#send())
    }
  }

  #waitMs(): number {
    if (this.#queuedSync) return this.#lastGroupInserts > 1 ? COMMIT_DELAY_MS : 0
    // Only claims, renewals and outcomes: while events arrive, they can wait for the next insert.
    return performance.now() - this.#lastInsertAt < ARRIVING_MS ? HOLD_MS : 0
  }

  #read<T>(op: ReadOp): Promise<T> {
    return (
      this.#refused() ??
      new Promise<T>((resolve, reject) => {
        const id = ++this.#nextId
        this.#waiting.set(id, { resolve: resolve as (value: never) => void, reject })
        this.#channel.post({ kind: 'read', id, op })
        this.#holdWhileAwaited()
      })
    )
  }

  /** Sends the queued writes as one transaction. */
  #send(): void {
    this.#scheduled = false
    clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#writing || this.#queue.length === 0 || this.#failure) return
    const group = this.#queue
    this.#queue = []
    this.#queuedSync = false
    let inserts = 0
    for (const { op } of group) if (op.t === 'insert') inserts++
    this.#lastGroupInserts = inserts
    this.#writing = true
    const id = ++this.#nextId
    this.#waiting.set(id, group)
    this.#channel.post({ kind: 'write', id, ops: group.map((q) => q.op) })
    this.#holdWhileAwaited()
  }

  #onReply(reply: EngineReply): void {
    if ('ready' in reply) {
      if (!reply.ready) this.#failAll(unavailable(`cannot open ${this.#path}: ${reply.error}`))
      return
    }
    const waiter = this.#waiting.get(reply.id)
    this.#waiting.delete(reply.id)
    if ('values' in reply || 'failed' in reply) this.#committed(waiter as QueuedWrite[], reply)
    else if ('result' in reply) {
      const one = waiter as Waiter
      if (reply.result.ok) one.resolve(reply.result.value as never)
      else one.reject(unavailable(reply.result.error))
    } else (waiter as Waiter | undefined)?.resolve(undefined as never)
    this.#holdWhileAwaited()
  }

  /** A commit's answer: settle each write of its group, then send what gathered meanwhile. */
  #committed(group: QueuedWrite[], outcome: WriteOutcome): void {
    this.#writing = false
    if ('failed' in outcome) {
      const error = unavailable(`could not commit: ${outcome.failed}`)
      for (const one of group) one.reject(error)
    } else {
      const failed = new Map(outcome.errors)
      for (const [i, one] of group.entries()) {
        const error = failed.get(i)
        if (error === undefined) one.resolve(outcome.values[i] as never)
        else one.reject(unavailable(error))
      }
    }
    if (this.#queue.length === 0) this.#idle?.()
    else this.#schedule(true)
  }

  // Keep the process alive only while an answer is awaited.
  #holdWhileAwaited(): void {
    this.#channel.hold(this.#waiting.size > 0 || this.#queue.length > 0)
  }

  #failAll(error: WebhookError): void {
    // The first failure says why (a thread that could not open the file then exits too).
    this.#failure ??= error
    const failure = this.#failure
    for (const waiter of this.#waiting.values()) for (const one of [waiter].flat()) one.reject(failure)
    for (const queued of this.#queue) queued.reject(failure)
    this.#waiting.clear()
    this.#queue = []
    this.#writing = false
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#idle?.()
  }
}
