import type { UploadedAsset, UploadProgress, UploadSource } from '@service-sdk/open'
import { useMemo } from 'react'
import type { UploadHookOptions } from './settings.ts'
import type { UploadFileOptions, UploadItem } from './types.ts'
import { useUploadQueue } from './use-uploads.ts'

/** Options of {@link useUpload}: the hook's own, and upload options for the file. */
export interface UseUploadOptions extends UploadHookOptions {}

/** `useUpload` before its first upload (or after `reset()`). */
export interface SingleUploadIdle {
  status: 'idle'
  item: undefined
  progress: undefined
  fraction: undefined
  asset: undefined
  error: undefined
}

/**
 * `useUpload` with an upload: its `item`, and the item's status, progress, fraction, asset and
 * error beside it, narrowed together (`status === 'done'`: `asset` is there; `'failed'`: `error`
 * is an `UploadFailure`).
 */
export type SingleUploadState<I extends UploadItem = UploadItem> = I extends UploadItem
  ? {
      status: I['status']
      /** The current upload. */
      item: I
      /** Its progress (phase, loaded, total, rate, etaMs, paused). */
      progress: UploadProgress
      /** `loaded / total`, 0 to 1; `undefined` while the size is unknown. */
      fraction: number | undefined
      /** The saved asset, once done. */
      asset: I['asset']
      /** Why it failed, or the abort reason. */
      error: I['error']
    }
  : never

/** What {@link useUpload} returns: the current upload's state (`idle` before the first), narrowed by `status`, and its controls. */
export type SingleUpload = (SingleUploadIdle | SingleUploadState) & SingleUploadActions

/** The controls of {@link useUpload}. */
export interface SingleUploadActions {
  /**
   * Uploads `source` (aborting the current upload if it is still running). Resolves with the
   * saved asset, or `undefined` when it fails or is aborted (then `status` and `error` say
   * which and why); never rejects.
   */
  start(source: UploadSource, options?: UploadFileOptions): Promise<UploadedAsset | undefined>
  /** No new part starts; resolves once no request is in flight (those already sending finish and count). */
  pause(): Promise<void>
  /** Continues after `pause()`. */
  resume(): void
  /** Stops for good; stored parts are discarded. */
  abort(): void
  /**
   * After a failure: continues from the stored parts (after `abort()`: starts again). Resolves
   * as `start()` does.
   */
  retry(): Promise<UploadedAsset | undefined>
  /** Aborts the current upload if running and goes back to `idle`. */
  reset(): void
}

/**
 * One upload at a time with the open client (`@service-sdk/open`): progress, rate, ETA, pause,
 * resume, abort, retry. A running upload is aborted when the component unmounts (not by
 * StrictMode's simulated unmount). Throws a `ServiceValidationError` for bad options.
 */
export function useUpload(options: UseUploadOptions = {}): SingleUpload {
  const { queue, snapshot } = useUploadQueue(options, 1)
  const item = snapshot.items.at(-1)
  // The queue holds the current upload only (start() removes the one before), so the actions
  // without an id apply to it.
  const actions = useMemo(() => {
    const reset = () => {
      for (const id of queue.ids()) queue.remove(id)
    }
    return {
      start(source: UploadSource, options?: UploadFileOptions) {
        reset()
        const [id] = queue.add(source, options)
        return queue.wait(id as string)
      },
      pause: () => queue.pause(),
      resume: () => queue.resume(),
      abort: () => queue.abort(),
      retry() {
        const id = queue.ids().at(-1)
        if (id === undefined) return Promise.resolve(undefined)
        queue.retry(id)
        return queue.wait(id)
      },
      reset,
    }
  }, [queue])
  return { ...stateOf(item), ...actions }
}

const IDLE: SingleUploadIdle = {
  status: 'idle',
  item: undefined,
  progress: undefined,
  fraction: undefined,
  asset: undefined,
  error: undefined,
}

function stateOf(item: UploadItem | undefined): SingleUploadIdle | SingleUploadState {
  if (!item) return IDLE
  const { status, progress, fraction, asset, error } = item
  return { status, item, progress, fraction, asset, error } as SingleUploadState
}
