import type { UploadedAsset, UploadOptions, UploadProgress, UploadSource } from '@service-sdk/open'

/**
 * Where one upload is. `queued`: waiting for a free slot (`concurrency`); `paused`: no new part
 * starts (a queued upload that is paused does not start); `done`: the asset is saved; `failed`:
 * `error` says why, `retry()` continues from the stored parts; `aborted`: stopped for good
 * (`retry()` starts it again from nothing).
 */
export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'failed' | 'aborted'

/** One upload as the hooks show it: a new object whenever something in it changed. */
export interface UploadItem {
  /** Stable for the item's life; what `pause(id)`, `retry(id)`... take. */
  readonly id: string
  /** The asset's name: `options.name`, else the file's name (a `File` or a path); `undefined` for bare bytes. */
  readonly name: string | undefined
  readonly status: UploadStatus
  /**
   * The upload engine's latest progress (phase, bytes `loaded` of `total`, smoothed `rate` in
   * bytes/s, `etaMs`), as of the last state update (they are throttled: `throttleMs`).
   */
  readonly progress: UploadProgress
  /** `loaded / total`, from 0 to 1; `undefined` while the size is unknown (a stream). */
  readonly fraction: number | undefined
  /** The saved asset, once `done`. */
  readonly asset: UploadedAsset | undefined
  /** Why it `failed` (an `UploadError`, a `ServiceError`...), or the abort reason once `aborted`. */
  readonly error: unknown
}

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
