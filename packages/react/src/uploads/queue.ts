import {
  asUploadFailure,
  type ListableCheckpointStore,
  type UploadCheckpoint,
  type UploadedAsset,
} from '@service-sdk/open'
import type { UploadClient } from '../client.tsx'
import { reportUncaught } from '../report.ts'
import { createEntry, type Entry, initialProgress, isSettled, toSources, viewOf } from './entry.ts'
import { summarize } from './summary.ts'
import type { UploadFileOptions, UploadItem, UploadSources, UploadSummary } from './types.ts'

/** What the hooks render: every upload, and their totals. */
export interface QueueSnapshot {
  readonly items: readonly UploadItem[]
  readonly summary: UploadSummary
  /** Unfinished uploads the checkpoint store keeps that are not in `items` (a reload, a crash). */
  readonly resumable: readonly UploadCheckpoint[]
}

/** Set on every render from the hook's options. */
export interface QueueSettings {
  client: UploadClient
  defaults: UploadFileOptions
  concurrency: number
  throttleMs: number
  onSettled: ((item: UploadItem) => void) | undefined
}

/**
 * The uploads of one component, as an external store for `useSyncExternalStore`. Progress
 * updates are coalesced to one snapshot per `throttleMs`; status changes are published in the
 * same microtask. A class: the state is the point, and it is kept whole across renders.
 */
export class UploadQueue {
  settings: QueueSettings
  readonly #entries = new Map<string, Entry>()
  readonly #listeners = new Set<() => void>()
  #snapshot: QueueSnapshot = { items: [], summary: summarize([]), resumable: [] }
  #resumable: readonly UploadCheckpoint[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #flushQueued = false
  #mounted = true

  constructor(settings: QueueSettings) {
    this.settings = settings
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  readonly getSnapshot = (): QueueSnapshot => this.#snapshot

  /** The ids of the uploads in the list now, in the order added (the snapshot may lag by a microtask). */
  ids(): string[] {
    return [...this.#entries.keys()]
  }

  /** Queues each source; returns their ids. Starts them as slots allow. */
  add(sources: UploadSources, options: UploadFileOptions = {}): string[] {
    const entries = toSources(sources).map((source) =>
      createEntry(source, { ...this.settings.defaults, ...options }),
    )
    for (const entry of entries) this.#entries.set(entry.id, entry)
    this.#publish(true)
    this.#pump()
    return entries.map((entry) => entry.id)
  }

  /** Resolves with the asset once upload `id` is done, or `undefined` once it failed or was aborted or removed. */
  wait(id: string): Promise<UploadedAsset | undefined> {
    const entry = this.#entries.get(id)
    if (!entry || isSettled(entry)) return Promise.resolve(entry?.asset)
    return new Promise((resolve) => entry.waiters.push(resolve))
  }

  /**
   * No new part starts; a queued upload does not start. Resolves once no request of these
   * uploads is in flight (requests already sending finish and count), with what they counted
   * already in the snapshot: the progress throttle does not hold it back.
   */
  pause(id?: string): Promise<void> {
    const pausing: Promise<void>[] = []
    for (const entry of this.#select(id)) {
      if (entry.status !== 'queued' && entry.status !== 'uploading') continue
      entry.status = 'paused'
      if (entry.active && entry.handle) pausing.push(entry.handle.pause())
      this.#changed(entry)
    }
    return Promise.all(pausing).then(() => {
      if (this.#timer !== undefined) this.#flush()
    })
  }

  resume(id?: string): void {
    for (const entry of this.#select(id)) {
      if (entry.status !== 'paused') continue
      entry.status = entry.active ? 'uploading' : 'queued'
      if (entry.active) entry.handle?.resume()
      this.#changed(entry)
    }
    this.#pump()
  }

  /** Stops for good: parts in flight are cut and the stored ones discarded (a failed upload's too). */
  abort(id?: string, reason?: unknown): void {
    for (const entry of this.#select(id)) {
      if (entry.status === 'done' || entry.status === 'aborted') continue
      const { handle, active } = entry
      entry.status = 'aborted'
      entry.error = reason
      // Aborting `handle` rejects its done() with `reason`: that settles an active entry.
      if (handle) void handle.abort(reason)
      if (!active) this.#settle(entry)
      else this.#changed(entry)
    }
  }

  /** A failed upload continues from its stored parts; an aborted one starts again from nothing. */
  retry(id?: string): void {
    for (const entry of this.#select(id)) {
      if (entry.status === 'failed') entry.retrying = entry.handle !== undefined
      else if (entry.status === 'aborted') {
        entry.handle = undefined
        entry.progress = initialProgress(entry.source)
      } else continue
      entry.status = 'queued'
      entry.error = undefined
      this.#changed(entry)
    }
    this.#pump()
  }

  /** Aborts upload `id` if it is not settled, and drops it from the list. */
  remove(id: string): void {
    this.abort(id)
    const entry = this.#entries.get(id)
    if (!entry) return
    entry.unlisten?.()
    this.#entries.delete(id)
    this.#publish(true)
  }

  /** Drops the uploads that are done or aborted. */
  clear(): void {
    for (const entry of this.#entries.values())
      if (entry.status === 'done' || entry.status === 'aborted') this.remove(entry.id)
  }

  /** The component's effect ran (again): start what may start, and read what may be resumed. */
  mount(): void {
    this.#mounted = true
    this.#pump()
    this.#refreshResumable()
  }

  /**
   * Reads the unfinished uploads of the checkpoint store, when it lists them
   * (`indexedDbCheckpoints()`); those of uploads in the list are left out. A store that fails to
   * list gives none (the uploads themselves say why, when they use it).
   */
  #refreshResumable(): void {
    const store = this.settings.defaults.checkpoint as { list?: unknown } | string | undefined
    if (typeof store !== 'object' || typeof store.list !== 'function') return
    ;(store as ListableCheckpointStore).list().then(
      (checkpoints) => {
        const listed = new Set([...this.#entries.values()].map((e) => fingerprintOf(e.source)))
        this.#resumable = checkpoints.filter((c) => !listed.has(keyOf(c.source)))
        this.#publish(true)
      },
      () => {},
    )
  }

  /** Starts queued uploads while fewer than `concurrency` are active (after `concurrency` changed). */
  pump(): void {
    this.#pump()
  }

  /**
   * The component's effect was cleaned up: abort every upload a microtask later, unless the
   * effect runs again in between (StrictMode's simulated unmount runs it again in the same task).
   */
  unmount(): void {
    this.#mounted = false
    queueMicrotask(() => {
      if (this.#mounted) return
      this.abort(undefined, new DOMException('The component using the uploads unmounted.', 'AbortError'))
      clearTimeout(this.#timer)
    })
  }

  #select(id: string | undefined): Entry[] {
    if (id === undefined) return [...this.#entries.values()]
    const entry = this.#entries.get(id)
    return entry ? [entry] : []
  }

  /** Starts queued uploads while fewer than `concurrency` are active. */
  #pump(): void {
    if (!this.#mounted) return
    let active = 0
    for (const entry of this.#entries.values()) if (entry.active) active++
    for (const entry of this.#entries.values()) {
      if (active >= this.settings.concurrency) return
      if (entry.status !== 'queued') continue
      active++
      this.#start(entry)
    }
  }

  #start(entry: Entry): void {
    entry.active = true
    entry.status = 'uploading'
    this.#changed(entry)
    let done: Promise<UploadedAsset>
    try {
      if (entry.retrying && entry.handle) done = entry.handle.retry()
      else {
        entry.handle = this.settings.client.upload(entry.source, entry.options)
        entry.unlisten?.()
        entry.unlisten = entry.handle.onProgress((progress) => {
          entry.progress = progress
          this.#changed(entry, false)
        })
        done = entry.handle.done()
      }
    } catch (error) {
      // Bad options: the client refused before sending anything.
      done = Promise.reject(error)
    }
    entry.retrying = false
    done.then(
      (asset) => this.#finish(entry, asset, undefined),
      (error) => this.#finish(entry, undefined, error),
    )
  }

  #finish(entry: Entry, asset: UploadedAsset | undefined, error: unknown): void {
    entry.active = false
    if (entry.handle) entry.progress = entry.handle.progress
    if (entry.status === 'aborted') entry.error ??= error
    else {
      entry.status = asset ? 'done' : 'failed'
      entry.asset = asset
      entry.error = asset ? undefined : asUploadFailure(error)
    }
    this.#settle(entry)
    this.#pump()
  }

  #settle(entry: Entry): void {
    this.#changed(entry)
    this.#refreshResumable()
    for (const resolve of entry.waiters.splice(0)) resolve(entry.asset)
    try {
      this.settings.onSettled?.(viewOf(entry))
    } catch (error) {
      reportUncaught(error)
    }
  }

  /** `urgent`: a status change, published this microtask; else progress, at most once per `throttleMs`. */
  #changed(entry: Entry, urgent = true): void {
    entry.view = undefined
    this.#publish(urgent)
  }

  #publish(urgent: boolean): void {
    if (urgent || this.settings.throttleMs === 0) {
      if (this.#flushQueued) return
      this.#flushQueued = true
      queueMicrotask(() => this.#flush())
    } else this.#timer ??= setTimeout(() => this.#flush(), this.settings.throttleMs)
  }

  #flush(): void {
    this.#flushQueued = false
    clearTimeout(this.#timer)
    this.#timer = undefined
    const items = [...this.#entries.values()].map(viewOf)
    this.#snapshot = { items, summary: summarize(items), resumable: this.#resumable }
    for (const listener of this.#listeners) listener()
  }
}

const keyOf = (f: { name: string; size: number; lastModified: number }) =>
  `${f.name}\u0000${f.size}\u0000${f.lastModified}`

/** A `File`'s fingerprint key (the checkpoint's), or `undefined` for other sources. */
function fingerprintOf(source: unknown): string | undefined {
  return typeof File !== 'undefined' && source instanceof File ? keyOf(source) : undefined
}
