import type { Worker as WorkerThread } from 'node:worker_threads'
import { WebhookError } from '../errors.ts'
import type { ClaimedEvent, EventStatus, Settlement, WebhookStore } from '../store.ts'
import { checkTableName, countsFrom, type EventRow, fromRow } from './rows.ts'
import {
  createEngine,
  type Engine,
  type EngineConfig,
  type EngineMessage,
  type OpResult,
  type ReadOp,
  respond,
  type WriteOp,
} from './sqlite-engine.ts'

export interface SqliteStoreOptions {
  /**
   * How hard a commit works to survive a crash (SQLite `PRAGMA synchronous`, in WAL mode):
   * - `FULL` (default): the WAL is fsynced at every commit; an acknowledged event survives a
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

// The worker: the engine's own source, run with the store's settings. Messages travel as JSON
// text: one flat string crosses threads far faster than a graph of small objects.
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads')
const respond = ${respond.toString()}
let engine
try {
  engine = (${createEngine.toString()})(workerData)
  parentPort.postMessage(JSON.stringify({ ready: true }))
} catch (error) {
  parentPort.postMessage(JSON.stringify({ ready: false, error: String((error && error.message) || error) }))
}
parentPort.on('message', (text) => parentPort.postMessage(JSON.stringify(respond(engine, JSON.parse(text)))))
`

/** Where the engine runs: a worker thread, or this thread. */
interface Channel {
  post(message: EngineMessage): void
  /** Hold the event loop open while an answer is awaited. */
  hold(awaiting: boolean): void
  terminate(): Promise<void>
}

type Reply =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; results: OpResult[] }
  | { id: number; failed: string }
  | { id: number; result: OpResult }
  | { id: number; closed: true }

interface Waiter {
  resolve: (value: never) => void
  reject: (error: unknown) => void
}

/**
 * The embedded inbox: one SQLite file in WAL mode through `node:sqlite` (Node >= 22.13; no native
 * addon), driven from a worker thread so that a commit's fsync never blocks the event loop.
 *
 * Group commit: every write requested while a commit is in flight (or during one turn of the
 * event loop) goes into the next transaction, committed and fsynced once; each caller's promise
 * settles after its own transaction committed. One process per file is the intended use; several
 * receivers on one machine can share a file, at the cost of waiting for each other's commits.
 * For several machines, use `postgresStore`.
 */
export function sqliteStore(path: string, options: SqliteStoreOptions = {}): WebhookStore {
  const table = checkTableName(options.table ?? 'webhook_events')
  const synchronous = options.synchronous ?? 'FULL'
  if (!['FULL', 'NORMAL', 'EXTRA'].includes(synchronous)) {
    throw new WebhookError(`sqliteStore: synchronous must be FULL, NORMAL or EXTRA.`, {
      code: 'invalid_options',
    })
  }
  if (!process.getBuiltinModule?.('node:sqlite')) {
    throw new WebhookError(
      `sqliteStore needs node:sqlite, built into Node 22.13 and later (23.4 on Node 23); this is Node ${process.versions.node}. Upgrade Node, or use postgresStore.`,
      { code: 'invalid_options' },
    )
  }
  const config: EngineConfig = { path, table, synchronous, busyTimeoutMs: options.busyTimeoutMs ?? 5000 }
  const channel = options.thread === 'main' ? mainThread(config, onReply) : workerThread(config, onReply)

  let failure: WebhookError | undefined
  let nextId = 0
  const waiting = new Map<number, Waiter | Waiter[]>()
  let queue: Array<{ op: WriteOp } & Waiter> = []
  let writing = false
  let scheduled = false
  let closed = false
  let idle: (() => void) | undefined

  const unavailable = (message: string, cause?: unknown) =>
    new WebhookError(`The SQLite store failed: ${message}`, {
      code: 'store_unavailable',
      isRetryable: true,
      cause,
    })

  function failAll(error: WebhookError): void {
    failure = error
    for (const w of waiting.values()) for (const one of [w].flat()) one.reject(error)
    for (const q of queue) q.reject(error)
    waiting.clear()
    queue = []
    writing = false
    idle?.()
  }

  // Keep the process alive only while an answer is awaited.
  const busy = () => channel.hold(waiting.size > 0 || queue.length > 0)

  function onReply(reply: Reply): void {
    if ('ready' in reply) {
      if (!reply.ready) failAll(unavailable(`cannot open ${path}: ${reply.error}`))
      return
    }
    const w = waiting.get(reply.id)
    waiting.delete(reply.id)
    if ('results' in reply || 'failed' in reply) {
      const group = w as Waiter[]
      writing = false
      if ('failed' in reply) {
        const error = unavailable(`could not commit: ${reply.failed}`)
        for (const one of group) one.reject(error)
      } else {
        for (const [i, one] of group.entries()) {
          const r = reply.results[i]!
          if (r.ok) one.resolve(r.value as never)
          else one.reject(unavailable(r.error))
        }
      }
      if (queue.length > 0) send()
      else idle?.()
    } else if ('result' in reply) {
      const one = w as Waiter
      if (reply.result.ok) one.resolve(reply.result.value as never)
      else one.reject(unavailable(reply.result.error))
    } else (w as Waiter | undefined)?.resolve(undefined as never)
    busy()
  }

  function workerThread(engineConfig: EngineConfig, deliver: (reply: Reply) => void): Channel {
    const { Worker } = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads')
    const worker: WorkerThread = new Worker(WORKER_SOURCE, { eval: true, workerData: engineConfig })
    worker.unref()
    worker.on('message', (text: string) => deliver(JSON.parse(text) as Reply))
    worker.on('error', (error) => failAll(unavailable(error.message, error)))
    worker.on('exit', () => {
      if (!closed) failAll(unavailable('its worker thread exited'))
    })
    return {
      post: (message) => worker.postMessage(JSON.stringify(message)),
      hold: (awaiting) => (awaiting ? worker.ref() : worker.unref()),
      terminate: async () => {
        await worker.terminate()
      },
    }
  }

  function mainThread(engineConfig: EngineConfig, deliver: (reply: Reply) => void): Channel {
    let engine: Engine | undefined
    try {
      engine = createEngine(engineConfig)
    } catch (error) {
      // Reported on first use, as the worker reports it.
      const message = (error as Error).message
      setImmediate(() => deliver({ ready: false, error: message }))
    }
    return {
      post(message) {
        if (!engine) return
        // Answered on the next turn, as the worker would: writes meanwhile gather for the next commit.
        const reply = respond(engine, message) as Reply
        setImmediate(() => deliver(reply))
      },
      hold: () => {},
      terminate: async () => {},
    }
  }

  function send(): void {
    scheduled = false
    if (writing || queue.length === 0 || failure) return
    const group = queue
    queue = []
    writing = true
    const id = ++nextId
    waiting.set(id, group)
    channel.post({ kind: 'write', id, ops: group.map((q) => q.op) })
    busy()
  }

  function write<T>(op: WriteOp): Promise<T> {
    if (failure) return Promise.reject(failure)
    if (closed) return Promise.reject(unavailable('the store is closed'))
    return new Promise<T>((resolve, reject) => {
      queue.push({ op, resolve: resolve as (value: never) => void, reject })
      busy()
      // While a commit is in flight, writes gather for the next one; otherwise wait one turn so
      // the requests read in this turn commit together.
      if (!writing && !scheduled) {
        scheduled = true
        setImmediate(send)
      }
    })
  }

  function read<T>(op: ReadOp): Promise<T> {
    if (failure) return Promise.reject(failure)
    if (closed) return Promise.reject(unavailable('the store is closed'))
    return new Promise<T>((resolve, reject) => {
      const id = ++nextId
      waiting.set(id, { resolve: resolve as (value: never) => void, reject })
      channel.post({ kind: 'read', id, op })
      busy()
    })
  }

  return {
    insert: (event) => write({ t: 'insert', ...event, orderKey: event.orderKey ?? null }),
    async claim({ owner, limit, now, leaseMs }) {
      const rows = await write<EventRow[]>({ t: 'claim', owner, limit, now, leaseMs })
      return rows.map((row) => fromRow(row) as ClaimedEvent)
    },
    renew: (key, owner, leaseUntil) => write({ t: 'renew', key, owner, leaseUntil }),
    settle(key, owner, outcome: Settlement) {
      return write({
        t: 'settle',
        key,
        owner,
        status: outcome.status,
        nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
        error: outcome.status === 'done' ? null : outcome.error,
        at: outcome.status === 'pending' ? null : outcome.at,
      })
    },
    async get(key) {
      const row = await read<EventRow | undefined>({ t: 'get', key })
      return row ? fromRow(row) : undefined
    },
    async list({ status, limit = 100, after } = {}) {
      const rows = await read<EventRow[]>({ t: 'list', status: status ?? null, after: after ?? null, limit })
      return rows.map(fromRow)
    },
    async counts() {
      return countsFrom(await read<Array<{ status: EventStatus; n: number }>>({ t: 'counts' }))
    },
    requeue: ({ keys, now }) => write({ t: 'requeue', keys: keys ? [...keys] : null, now }),
    prune: ({ before, status = 'done' }) => write({ t: 'prune', status, before }),
    async close() {
      if (closed) return
      closed = true
      if (queue.length > 0 || writing) await new Promise<void>((resolve) => (idle = resolve))
      if (!failure) {
        await new Promise<void>((resolve) => {
          const id = ++nextId
          waiting.set(id, { resolve: () => resolve(), reject: () => resolve() })
          channel.hold(true)
          channel.post({ kind: 'close', id })
        })
      }
      await channel.terminate()
    },
  }
}
