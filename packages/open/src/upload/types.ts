import type { IdLike, RetryOptions, SavedMaterial } from '@service-sdk/core'
import type { CheckpointStore, ListableCheckpointStore } from './checkpoints/checkpoint.ts'
import type { UploadPhase, UploadProgress } from './run/progress.ts'
import type { UploadFailure } from './run/upload-failure.ts'

/**
 * What can be uploaded. Node: a file path, a Buffer / Uint8Array / ArrayBuffer, a Blob or File,
 * or a stream (Node Readable, web ReadableStream, any async iterable of bytes). Browsers: a File
 * or Blob, bytes, or a ReadableStream. Files, bytes and Blobs go up in parallel parts and can be
 * resumed; a stream is read once, part by part, and cannot be resumed after a crash.
 */
export type UploadSource =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>

/** The asset's fields (material-save's, see `spec/openapi.yaml`); `name` and `extension` default to the source's file name. */
export interface UploadAssetFields {
  /** Target folder; omitted or 0: the root folder of the space. */
  folderId?: IdLike
  /** Asset name without extension. Default: the file name without its extension. */
  name?: string
  /** Extension without the dot. Default: the file name's. Required when the source has no name. */
  extension?: string
  description?: string
  tags?: string[]
  link?: string
  /** Pixels. Default: read from the first bytes of PNG, JPEG, GIF, WebP and BMP files. */
  width?: number
  height?: number
}

/**
 * Core's retry options (`RetryOptions`) as far as the object storage goes, with the upload's own
 * defaults (one retry more than an API call's: a part is large and its upload idempotent). The
 * backoff is core's. The defaults are `DEFAULT_UPLOAD_RETRY` (upload/options.ts).
 */
export interface UploadRetryOptions
  extends Pick<RetryOptions, 'maxRetries' | 'initialDelayMs' | 'maxDelayMs'> {
  /** Retries of one OSS request after the first attempt (each part on its own). Default 3 (four attempts in all). */
  maxRetries?: number
  /** Backoff before the first retry; it doubles each time, with jitter. Default 500 ms. */
  initialDelayMs?: number
  /** Cap for one backoff. Default 8,000 ms. */
  maxDelayMs?: number
}

/** How the bytes go up; defaults come from `createOpenClient({ uploads })`. */
export interface UploadTransferOptions {
  /**
   * Part size in bytes for multipart uploads; a file no larger goes up in one PUT. Default
   * 8 MiB (faster than ali-oss's 1 MiB against OSS: see docs/service/uploads.md). At least 100 KiB; grown
   * automatically so that a file needs no more than 10,000 parts.
   */
  partSize?: number
  /** Parts in flight at once, per file. Default 4. */
  parallel?: number
  /** Retries of failed OSS requests, or `false` for none. */
  retry?: UploadRetryOptions | false
  /** An OSS request that sends and receives nothing for this long fails (and is retried). Default 60,000 ms. */
  timeoutMs?: number
  /**
   * Make the upload resumable after a crash or a page reload: a directory for checkpoint files
   * (Node), `indexedDbCheckpoints()` (browsers), or a `CheckpointStore` of your own. Only files (a
   * path, a `File`) can be resumed: their path or name, size and mtime identify them, so picking
   * the same file again continues it.
   */
  checkpoint?: string | CheckpointStore
  /**
   * A multipart upload that fails keeps its stored parts on the server and its checkpoint, so that
   * `retry()` (or `upload()` again with the same file and checkpoint) continues from them; `abort()`
   * after the failure discards them. `false`: abort it on the server at once. Default `true` for
   * `upload()`; for `uploadMany()`, `true` only with a `checkpoint` (nothing else could resume it).
   * Streams are read once: their parts are never kept.
   */
  keepPartsOnFailure?: boolean
  /** Aborts the upload, like `abort()`. */
  signal?: AbortSignal
}

export interface UploadOptions extends UploadAssetFields, UploadTransferOptions {
  /** The team space to save into; omitted (or the selector's `1`): the personal space. */
  orgId?: IdLike
  /** The object key below the credentials' directory. Default: `<random>/<file name>`, unique. */
  key?: string
  onProgress?: (progress: UploadProgress) => void
  /**
   * Save even when material-save was sent for this file before without a clear answer (the
   * checkpoint remembers it; the upload then fails with `UploadError` `save_outcome_unknown`).
   * It may make a second asset: look in the space first. Default false.
   */
  saveAgain?: boolean
}

/** The saved asset (material-save's answer), with the size and extension it was saved with. */
export type UploadedAsset = SavedMaterial & { size: number; extension: string }

/** A running upload. It starts when `open.upload()` returns. */
export interface Upload {
  /** The object key, once credentials are in. */
  readonly key: string | undefined
  /** The multipart upload id, when the object goes up in parts. */
  readonly uploadId: string | undefined
  /** The latest progress. */
  readonly progress: UploadProgress
  /** Listen to progress; returns a function that stops listening. */
  onProgress(listener: (progress: UploadProgress) => void): () => void
  /**
   * Resolves with the saved asset. Rejects with `UploadError` (the object upload failed: part
   * number, OSS code; or `save_outcome_unknown`: material-save was sent and no answer said whether
   * the asset was made, so it is not sent again by itself), `ServiceValidationError`,
   * `ServicePermissionError` (the space is not writable: nothing was uploaded), another
   * `ServiceError` from material-save, or the abort reason.
   */
  done(): Promise<UploadedAsset>
  /**
   * Stop: parts in flight are cut, the multipart upload is aborted on the server and the
   * checkpoint removed; `done()` rejects with `reason` (default an `AbortError`). Resolves once
   * all that is finished (a control request already sent, such as the initiation, is let finish
   * so its upload can be aborted too). After the object is complete only material-save is stopped.
   * After a failure, it discards the parts and checkpoint the failure kept (`done()` keeps its error).
   */
  abort(reason?: unknown): Promise<void>
  /**
   * No new object request starts (a part, a retry of one, a single PUT, the completion); requests
   * already sending finish and count. Resolves once none is in flight. `done()` stays pending;
   * `abort()` still works. The sts-tmp, org-info and material-save calls are not paused.
   */
  pause(): Promise<void>
  /** Continue a paused upload. */
  resume(): void
  /**
   * After `done()` rejected: run the upload again from where it stopped (the parts the storage
   * lists are kept; after a refused material-save only the save is repeated) and return the new
   * `done()`. While running, after success or after `abort()`: returns `done()` unchanged. A
   * stream cannot be retried unless its object was complete (`UploadError` `source_consumed`).
   * After `save_outcome_unknown`, the save is repeated only with `{ saveAgain: true }`.
   */
  retry(options?: { saveAgain?: boolean }): Promise<UploadedAsset>
}

/** One file of `uploadMany`, with its own asset fields. */
export interface UploadManyItem extends UploadAssetFields {
  source: UploadSource
  key?: string
}

export interface UploadManyOptions
  extends Pick<UploadAssetFields, 'folderId' | 'description' | 'tags' | 'link'>,
    UploadTransferOptions {
  /** The team space of every file; omitted (or `1`): the personal space. */
  orgId?: IdLike
  /** Files uploading at once. Default 8. */
  concurrency?: number
  onProgress?: (progress: UploadManyProgress) => void
  /** As `UploadOptions.saveAgain`, for every file of the batch. Default false. */
  saveAgain?: boolean
}

export interface UploadManyProgress {
  phase: UploadPhase
  /** Bytes sent, all files together. */
  loaded: number
  /** Bytes of the files whose size is known so far. */
  total: number
  files: {
    total: number
    /** Objects complete in the storage. */
    uploaded: number
    /** Assets saved. */
    saved: number
    failed: number
  }
}

export type UploadManyResult =
  | { status: 'fulfilled'; index: number; asset: UploadedAsset }
  | { status: 'rejected'; index: number; error: UploadFailure }

/** A running `uploadMany`. */
export interface UploadBatch {
  readonly progress: UploadManyProgress
  onProgress(listener: (progress: UploadManyProgress) => void): () => void
  /**
   * Every file's outcome, in the order given (a failed file does not stop the others). Rejects
   * only when the batch cannot start (the space is not writable) or is aborted.
   */
  done(): Promise<UploadManyResult[]>
  /** Stop every file, as `Upload.abort()` does; assets already saved stay. */
  abort(reason?: unknown): Promise<void>
}

/** Client-wide upload settings: `createOpenClient({ uploads: {...} })`. */
export interface UploadDefaults
  extends Pick<UploadTransferOptions, 'partSize' | 'parallel' | 'retry' | 'timeoutMs'> {
  /**
   * How long an STS credential from sts-tmp is used for new requests. Default 5 minutes (ali-oss's
   * own refresh interval): sts-tmp does not say when its credentials expire, and this is well
   * inside the shortest STS lifetime (15 minutes). Expiry answers from OSS are recovered anyway.
   */
  credentialTtlMs?: number
  /** `uploadMany` files at once. Default 8. */
  concurrency?: number
}

/** `open.cleanupUploads(options)`. */
export interface CleanupOptions {
  /**
   * Abort only multipart uploads initiated (with `checkpoint`: whose checkpoint was last written)
   * longer ago than this. Default 24 hours.
   */
  olderThanMs?: number
  /**
   * Clean up the unfinished uploads this store (or checkpoint directory) recorded, instead of
   * listing the storage: their multipart uploads are aborted and their checkpoints removed. The
   * way through the upload proxy, which signs no listing.
   */
  checkpoint?: string | ListableCheckpointStore
  signal?: AbortSignal
}

/** A multipart upload the storage held. */
export interface StaleUpload {
  key: string
  uploadId: string
  /** When it was initiated, epoch milliseconds. */
  initiated: number
}

export interface CleanupResult {
  /** Aborted: their parts are gone. */
  aborted: StaleUpload[]
  /** The storage refused to abort these (`error` is an `UploadError`). */
  failed: Array<StaleUpload & { error: unknown }>
}
