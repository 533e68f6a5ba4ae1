import type {
  UploadedAsset,
  UploadFailure,
  UploadOptions,
  UploadProgress,
  UploadSource,
} from '@service-sdk/open'

/**
 * Where one upload is. `queued`: waiting for a free slot (`concurrency`); `paused`: no new part
 * starts (a queued upload that is paused does not start); `done`: the asset is saved; `failed`:
 * `error` says why, `retry()` continues from the stored parts; `aborted`: stopped for good
 * (`retry()` starts it again from nothing).
 */
export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'failed' | 'aborted'

/** What every {@link UploadItem} has, whatever its status. */
export interface UploadItemFields {
  /** Stable for the item's life; what `pause(id)`, `retry(id)`... take. */
  readonly id: string
  /** The asset's name: `options.name`, else the file's name (a `File` or a path); `undefined` for bare bytes. */
  readonly name: string | undefined
  /**
   * The upload engine's latest progress (phase, bytes `loaded` of `total`, smoothed `rate` in
   * bytes/s, `etaMs`), as of the last state update (they are throttled: `throttleMs`).
   */
  readonly progress: UploadProgress
  /** `loaded / total`, from 0 to 1; `undefined` while the size is unknown (a stream). */
  readonly fraction: number | undefined
}

/** An upload waiting for a slot, sending, or paused: no asset and no error yet. */
export interface UploadItemRunning extends UploadItemFields {
  readonly status: 'queued' | 'uploading' | 'paused'
  readonly asset: undefined
  readonly error: undefined
}

/** A saved upload: `asset` is there. */
export interface UploadItemDone extends UploadItemFields {
  readonly status: 'done'
  /** The saved asset. */
  readonly asset: UploadedAsset
  readonly error: undefined
}

/** A failed upload: `error` says why (`retry()` continues from the stored parts). */
export interface UploadItemFailed extends UploadItemFields {
  readonly status: 'failed'
  readonly asset: undefined
  /** Why it failed: an `UploadError`, an answer of the service, the network, bad options... */
  readonly error: UploadFailure
}

/** An upload stopped for good by `abort()` (`retry()` starts it again from nothing). */
export interface UploadItemAborted extends UploadItemFields {
  readonly status: 'aborted'
  readonly asset: undefined
  /** The abort reason: what `abort()` was given, else the engine's `AbortError`. */
  readonly error: unknown
}

/**
 * One upload as the hooks show it: a new object whenever something in it changed. `status`
 * narrows it: `'done'` has the `asset`, `'failed'` a typed `error`.
 */
export type UploadItem = UploadItemRunning | UploadItemDone | UploadItemFailed | UploadItemAborted

/** The upload options the hooks take for every file: all of `open.upload()`'s but `signal` and `onProgress` (the hooks own them). */
export interface UploadFileOptions extends Omit<UploadOptions, 'signal' | 'onProgress'> {}

/** What can be added: one source, an array of them, or a `FileList` (from `<input type="file">`). */
export type UploadSources = UploadSource | readonly UploadSource[] | FileList

/** Totals over the uploads of a `useUploads()`. */
export interface UploadSummary {
  /** Bytes sent, all uploads together (aborted ones left out). */
  loaded: number
  /** Bytes of all uploads (aborted ones left out); a stream whose size is not known yet counts what it has sent. */
  total: number
  /** `loaded / total`; `undefined` when nothing is there. */
  fraction: number | undefined
  /** Bytes per second, all uploads sending now together; `undefined` when none is. */
  rate: number | undefined
  /** Estimated milliseconds until everything is sent, at `rate`. */
  etaMs: number | undefined
  /** How many uploads are in each status. */
  counts: Record<UploadStatus, number>
}
