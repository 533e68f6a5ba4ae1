import { UploadError } from '@service-sdk/core'
import type { ListableCheckpointStore, UploadCheckpoint } from './checkpoint.ts'
import type { SourceFingerprint } from './source-fingerprint.ts'

/** `indexedDbCheckpoints(options)`. */
export interface IndexedDbCheckpointOptions {
  /** The IndexedDB database the checkpoints are kept in. Default `'service-sdk-uploads'`. */
  database?: string
  /**
   * Checkpoints not updated for this long are stale: `list()` drops them, and
   * `cleanupUploads({ checkpoint })` aborts their parts on the server. Default 7 days.
   */
  maxAgeMs?: number
}

const STORE = 'checkpoints'
const DAY = 24 * 3_600_000

/** The key of a source: its name, size and modification time (a changed file is a new upload). */
const keyOf = (source: SourceFingerprint) => JSON.stringify([source.name, source.size, source.lastModified])

function unavailable(reason: string): UploadError {
  return new UploadError({
    code: 'checkpoint_unavailable',
    message: `Resumable uploads keep their checkpoints in IndexedDB, which ${reason}. Upload without a checkpoint, or pass a CheckpointStore of your own.`,
  })
}

/** A request's result, as a promise. */
function settled<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(unavailable(`failed (${request.error?.name ?? 'unknown error'})`))
  })
}

/**
 * Checkpoints in the browser's IndexedDB, so that an upload survives a reload, a closed tab or a
 * crash: `open.upload(file, { checkpoint: store })` with the same file (name, size, modification
 * time) continues from the parts already stored. Throws `UploadError` `checkpoint_unavailable`
 * where there is no IndexedDB (Node, some private windows); a database that fails later fails
 * `list()` the same way, and an upload then goes on without being resumable (logged).
 */
export function indexedDbCheckpoints(options: IndexedDbCheckpointOptions = {}): ListableCheckpointStore {
  const factory = (globalThis as { indexedDB?: IDBFactory }).indexedDB
  if (!factory) throw unavailable('this runtime does not have')
  const maxAge = options.maxAgeMs ?? 7 * DAY
  let db: Promise<IDBDatabase> | undefined
  const open = () => {
    db ??= (async () => {
      const request = factory.open(options.database ?? 'service-sdk-uploads', 1)
      request.onupgradeneeded = () => request.result.createObjectStore(STORE)
      return settled(request)
    })()
    return db
  }
  const run = async <T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest<T>) => {
    const store = (await open()).transaction(STORE, mode).objectStore(STORE)
    return settled(use(store))
  }
  const all = async () => (await run('readonly', (s) => s.getAll())) as UploadCheckpoint[]
  const age = (c: UploadCheckpoint) => Date.now() - (c.updatedAt ?? 0)
  return {
    load: (source) => run('readonly', (s) => s.get(keyOf(source))) as Promise<UploadCheckpoint | undefined>,
    save: async (checkpoint) => {
      await run('readwrite', (s) => s.put(checkpoint, keyOf(checkpoint.source)))
    },
    remove: async (source) => {
      await run('readwrite', (s) => s.delete(keyOf(source)))
    },
    list: async () =>
      (await all()).filter((c) => age(c) < maxAge).sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0)),
    stale: async (olderThanMs = maxAge) => (await all()).filter((c) => age(c) >= olderThanMs),
  }
}
