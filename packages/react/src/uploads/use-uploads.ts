import type { UploadCheckpoint, UploadedAsset } from '@service-sdk/open'
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import { useOpenClient } from '../client.tsx'
import { UploadQueue } from './queue.ts'
import { HOOK_DEFAULTS, toSettings, type UploadHookOptions } from './settings.ts'
import type { UploadFileOptions, UploadItem, UploadSources, UploadSummary } from './types.ts'

/** Options of {@link useUploads}: the hook's own, and upload options applied to every file. */
export interface UseUploadsOptions extends UploadHookOptions {
  /** Uploads sending at once; the others wait, `queued`. @default 3 */
  concurrency?: number
}

/** What {@link useUploads} returns. Without an `id`, an action applies to every upload. */
export interface Uploads {
  /** Every upload added and not removed, in the order added. */
  items: readonly UploadItem[]
  /** Their totals: bytes, combined rate, ETA, counts per status. */
  summary: UploadSummary
  /**
   * Uploads a page left unfinished (a reload, a closed tab, a crash) that the `checkpoint` store
   * keeps (`indexedDbCheckpoints()` lists them): each names its file (`source.name`, `size`) and
   * holds its stored `parts`. `add()` the same file again to continue it from those parts.
   */
  resumable: readonly UploadCheckpoint[]
  /** Queues one upload per source (a `FileList` from an input, an array, or one source); returns their ids. */
  add(sources: UploadSources, options?: UploadFileOptions): string[]
  /** Resolves with the saved asset once upload `id` is done, `undefined` if it fails, is aborted or removed. */
  wait(id: string): Promise<UploadedAsset | undefined>
  /**
   * No new part starts; queued uploads do not start. Resolves once none of their requests is in
   * flight (those already sending finish and count).
   */
  pause(id?: string): Promise<void>
  /** Continues paused uploads. */
  resume(id?: string): void
  /** Stops uploads for good; their stored parts are discarded. */
  abort(id?: string): void
  /** Failed uploads continue from their stored parts; aborted ones start again. */
  retry(id?: string): void
  /** Aborts upload `id` if needed and drops it from `items`. */
  remove(id: string): void
  /** Drops the uploads that are done or aborted from `items`. */
  clear(): void
}

/**
 * Many uploads with the open client (`@service-sdk/open`): a queue of `concurrency` at a time,
 * each with progress, rate and ETA, pause, resume, abort and retry. Every upload still running
 * is aborted when the component unmounts (not by StrictMode's simulated unmount). Renders at
 * most once per `throttleMs` for progress. Throws a `ServiceValidationError` for bad options.
 */
export function useUploads(options: UseUploadsOptions = {}): Uploads {
  const { concurrency = HOOK_DEFAULTS.concurrency, ...rest } = options
  const { queue, snapshot } = useUploadQueue(rest, concurrency)
  const actions = useMemo(
    () => ({
      add: (sources: UploadSources, options?: UploadFileOptions) => queue.add(sources, options),
      wait: (id: string) => queue.wait(id),
      pause: (id?: string) => queue.pause(id),
      resume: (id?: string) => queue.resume(id),
      abort: (id?: string) => queue.abort(id),
      retry: (id?: string) => queue.retry(id),
      remove: (id: string) => queue.remove(id),
      clear: () => queue.clear(),
    }),
    [queue],
  )
  return { items: snapshot.items, summary: snapshot.summary, resumable: snapshot.resumable, ...actions }
}

/**
 * The upload queue of a component, for both hooks (`useUpload` is this queue with one upload at a
 * time): made once, its settings renewed each render, started and stopped with the component,
 * and its state read as React state.
 */
export function useUploadQueue(options: UploadHookOptions, concurrency: number) {
  const client = useOpenClient(options.client)
  const settings = toSettings(options, client, concurrency)
  const [queue] = useState(() => new UploadQueue(settings))
  queue.settings = settings

  useEffect(() => {
    queue.mount()
    return () => queue.unmount()
  }, [queue])
  // biome-ignore lint/correctness/useExhaustiveDependencies: a higher concurrency may start queued uploads.
  useEffect(() => queue.pump(), [queue, concurrency])

  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot)
  return { queue, snapshot }
}
