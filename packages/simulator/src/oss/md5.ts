import { createHash, type Hash } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

/**
 * Incremental MD5 that moves big bodies' hashing off the event loop. MD5 is most of what an
 * upload costs the server (one core hashes ~530 MiB/s; the HTTP path alone is cheaper), and the
 * event loop is shared with everything else the simulator (and, in tests, the client) does.
 * Bodies under OFFLOAD_FROM are hashed inline, since posting them would cost more than hashing.
 * Past it, chunks are copied into ~1 MiB batches and transferred to a worker; at most
 * MAX_IN_FLIGHT bytes per body wait there, beyond that `update` asks the caller to wait, which
 * holds back reading the socket (TCP backpressure) instead of queueing memory. In bench/oss-upload.ts this
 * cut the event loop's CPU per uploaded MiB by about a third, for ~10% more CPU in total.
 */
export interface Md5 {
  /** A promise when the caller should wait before the next chunk; chunks must not be modified later. */
  update(chunk: Uint8Array): Promise<void> | undefined
  digest(): Promise<Buffer>
  /** Abandons the hash (the body failed): frees its state in the worker. */
  dispose(): void
}

const OFFLOAD_FROM = 1024 * 1024
const BATCH = 1024 * 1024
const MAX_IN_FLIGHT = 2 * 1024 * 1024
/** Batch buffers are sent back with each ack and reused: steady hashing allocates nothing. */
const BUFFER_SIZE = BATCH + 256 * 1024
const MAX_SPARE_BUFFERS = 4
const spare: ArrayBuffer[] = []

export function createMd5(): Md5 {
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let inline: Hash | undefined
  let session: Session | undefined
  let offloaded = false

  const take = () => {
    const chunks = pending
    pending = []
    pendingBytes = 0
    return chunks
  }
  const hashInline = () => {
    inline ??= createHash('md5')
    for (const chunk of take()) inline.update(chunk)
  }

  return {
    update(chunk) {
      pending.push(chunk)
      pendingBytes += chunk.byteLength
      if (pendingBytes < (offloaded ? BATCH : OFFLOAD_FROM)) return undefined
      if (!offloaded) {
        offloaded = true
        session = openSession()
      }
      if (!session) {
        hashInline()
        return undefined
      }
      return session.send(concat(take()))
    },
    async digest() {
      if (!session) {
        hashInline()
        return (inline ?? createHash('md5')).digest()
      }
      if (pendingBytes > 0) void session.send(concat(take()))
      return session.end()
    },
    dispose() {
      pending = []
      session?.drop()
    },
  }
}

/** The chunks copied into one batch (its buffer is transferred, so never a caller's memory). */
function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const size = chunks.reduce((n, c) => n + c.byteLength, 0)
  const buffer =
    (size <= BUFFER_SIZE ? spare.pop() : undefined) ?? new ArrayBuffer(Math.max(size, BUFFER_SIZE))
  const out = new Uint8Array(buffer, 0, size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

// The worker is plain CommonJS evaluated from a string: no file to locate in source or in dist.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
const hashes = new Map()
parentPort.on('message', ({ id, data, length, end, drop }) => {
  if (drop) return void hashes.delete(id)
  let hash = hashes.get(id)
  if (!hash) hashes.set(id, (hash = createHash('md5')))
  if (data) {
    hash.update(new Uint8Array(data, 0, length))
    parentPort.postMessage({ id, ack: length, data }, [data])
  }
  if (end) {
    hashes.delete(id)
    const digest = hash.digest()
    parentPort.postMessage({ id, digest: digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.length) })
  }
})
`

interface Session {
  send(batch: Uint8Array): Promise<void> | undefined
  end(): Promise<Buffer>
  drop(): void
}

interface SessionState {
  inFlight: number
  wake: (() => void) | undefined
  done: { resolve(digest: Buffer): void; reject(error: unknown): void } | undefined
}

interface PoolWorker {
  worker: Worker
  sessions: Map<number, SessionState>
}

const pool: PoolWorker[] = []
let nextId = 1
/** Set when workers cannot be started here: everything is hashed inline from then on. */
let unavailable = false

function poolSize(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1))
}

function startWorker(): PoolWorker | undefined {
  let worker: Worker
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true })
  } catch {
    unavailable = true
    return undefined
  }
  const entry: PoolWorker = { worker, sessions: new Map() }
  // Only a worker with work keeps the process alive.
  worker.unref()
  worker.on('message', (message: { id: number; ack?: number; data?: ArrayBuffer; digest?: ArrayBuffer }) => {
    if (message.data && message.data.byteLength === BUFFER_SIZE && spare.length < MAX_SPARE_BUFFERS)
      spare.push(message.data)
    const state = entry.sessions.get(message.id)
    if (!state) return
    if (message.ack !== undefined) {
      state.inFlight -= message.ack
      if (state.inFlight <= MAX_IN_FLIGHT && state.wake) {
        const wake = state.wake
        state.wake = undefined
        wake()
      }
    }
    if (message.digest) {
      entry.sessions.delete(message.id)
      if (entry.sessions.size === 0) worker.unref()
      state.done?.resolve(Buffer.from(message.digest))
    }
  })
  const fail = (error: unknown) => {
    pool.splice(pool.indexOf(entry), 1)
    for (const state of entry.sessions.values()) {
      state.wake?.()
      state.done?.reject(error)
    }
    entry.sessions.clear()
  }
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`MD5 worker exited with code ${code}`)))
  pool.push(entry)
  return entry
}

function openSession(): Session | undefined {
  if (unavailable) return undefined
  const entry =
    pool.length < poolSize()
      ? startWorker()
      : pool.reduce((a, b) => (b.sessions.size < a.sessions.size ? b : a), pool[0] as PoolWorker)
  if (!entry) return undefined
  const id = nextId++
  const state: SessionState = { inFlight: 0, wake: undefined, done: undefined }
  entry.sessions.set(id, state)
  entry.worker.ref()
  let failure: unknown
  const digest = new Promise<Buffer>((resolve, reject) => {
    state.done = {
      resolve,
      reject: (error) => {
        failure = error
        reject(error)
      },
    }
  })
  digest.catch(() => undefined)
  return {
    send(batch) {
      if (failure) throw failure
      state.inFlight += batch.byteLength
      entry.worker.postMessage({ id, data: batch.buffer, length: batch.byteLength }, [
        batch.buffer as ArrayBuffer,
      ])
      if (state.inFlight <= MAX_IN_FLIGHT) return undefined
      return new Promise<void>((resolve) => {
        state.wake = resolve
      })
    },
    end() {
      entry.worker.postMessage({ id, end: true })
      return digest
    },
    drop() {
      if (!entry.sessions.delete(id)) return
      if (entry.sessions.size === 0) entry.worker.unref()
      entry.worker.postMessage({ id, drop: true })
    },
  }
}
