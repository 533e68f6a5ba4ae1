import {
  asUploadFailure,
  type Upload,
  type UploadedAsset,
  type UploadProgress,
  type UploadSource,
} from '@service-sdk/open'
import type { UploadFileOptions, UploadItem, UploadItemFields, UploadSources, UploadStatus } from './types.ts'

/** One upload's mutable state inside an `UploadQueue`; `UploadItem` is its immutable view. */
export interface Entry {
  readonly id: string
  readonly source: UploadSource
  readonly options: UploadFileOptions
  readonly name: string | undefined
  status: UploadStatus
  progress: UploadProgress
  asset: UploadedAsset | undefined
  error: unknown
  /** The engine's handle once started; kept after a failure for `retry()`. */
  handle: Upload | undefined
  /** Stops listening to `handle`'s progress. */
  unlisten: (() => void) | undefined
  /** Started and not settled: holds one of the `concurrency` slots. */
  active: boolean
  /** Queued to continue a failed upload with `handle.retry()`, not to start afresh. */
  retrying: boolean
  /** The cached view; dropped whenever the entry changes. */
  view: UploadItem | undefined
  /** Callers of `wait()`, told when the upload settles. */
  waiters: Array<(asset: UploadedAsset | undefined) => void>
}

let sequence = 0

/** The sources of one `add()`: a `FileList` or an array is many; anything else is one. */
export function toSources(sources: UploadSources): UploadSource[] {
  if (Array.isArray(sources)) return [...sources]
  if (typeof FileList !== 'undefined' && sources instanceof FileList) return Array.from(sources)
  return [sources as UploadSource]
}

function sizeOf(source: UploadSource): number | undefined {
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) return source.byteLength
  return undefined
}

function nameOf(source: UploadSource, options: UploadFileOptions): string | undefined {
  if (options.name !== undefined)
    return options.extension ? `${options.name}.${options.extension}` : options.name
  if (typeof source === 'string') return source.split(/[\\/]/).pop()
  if (typeof File !== 'undefined' && source instanceof File) return source.name
  return undefined
}

/** The progress of an upload that has not started. */
export function initialProgress(source: UploadSource): UploadProgress {
  return {
    phase: 'credentials',
    loaded: 0,
    total: sizeOf(source),
    key: undefined,
    rate: undefined,
    etaMs: undefined,
    paused: false,
  }
}

export function createEntry(source: UploadSource, options: UploadFileOptions): Entry {
  return {
    id: `upload-${++sequence}`,
    source,
    options,
    name: nameOf(source, options),
    status: 'queued',
    progress: initialProgress(source),
    asset: undefined,
    error: undefined,
    handle: undefined,
    unlisten: undefined,
    active: false,
    retrying: false,
    view: undefined,
    waiters: [],
  }
}

function fractionOf({ progress, status }: Entry): number | undefined {
  if (progress.total === undefined) return undefined
  if (progress.total === 0) return status === 'done' ? 1 : 0
  return Math.min(1, progress.loaded / progress.total)
}

/** The entry's immutable view, rebuilt only after it changed (so unchanged rows keep their identity). */
export function viewOf(entry: Entry): UploadItem {
  entry.view ??= itemOf(entry, {
    id: entry.id,
    name: entry.name,
    progress: entry.progress,
    fraction: fractionOf(entry),
  })
  return entry.view
}

/** The view for the entry's status: the asset only once done, a typed error only once failed. */
function itemOf(entry: Entry, fields: UploadItemFields): UploadItem {
  const { status } = entry
  // An entry is `done` only with its asset (queue.ts #finish).
  if (status === 'done') return { ...fields, status, asset: entry.asset as UploadedAsset, error: undefined }
  if (status === 'failed') return { ...fields, status, asset: undefined, error: asUploadFailure(entry.error) }
  if (status === 'aborted') return { ...fields, status, asset: undefined, error: entry.error }
  return { ...fields, status, asset: undefined, error: undefined }
}

/** Whether the upload has finished one way or another (`retry()` may start it again). */
export const isSettled = (entry: Entry): boolean =>
  entry.status === 'done' || entry.status === 'failed' || entry.status === 'aborted'
