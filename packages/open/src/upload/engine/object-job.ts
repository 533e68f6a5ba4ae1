import type { Logger, MaterialInput } from '@service-sdk/core'
import type { AccessCache } from '../access/access-cache.ts'
import type { UploadCheckpoint } from '../checkpoints/checkpoint.ts'
import type { AssetFields, TransferSettings } from '../options/options.ts'
import type { UploadPlatform } from '../platform/platform.ts'
import type { Gate } from '../run/gate.ts'
import type { ProgressTracker } from '../run/progress.ts'

/** What the engine needs from the client: the platform, the shared store access, the logger. */
export interface EngineDeps {
  platform: UploadPlatform
  access: AccessCache
  logger: Logger
}

/** Where a multipart upload stands, kept in memory for `retry()` (a checkpoint without the source). */
export type ResumePoint = Omit<UploadCheckpoint, 'version' | 'source'>

/** What the handle shows, what a retry continues from, and what the cleanup needs. */
export interface UploadState {
  key?: string
  uploadId?: string | undefined
  /** The object is complete in the storage. */
  completed: boolean
  /** The latest state of the object upload, for a retry in this process. */
  point?: ResumePoint | undefined
  /** After a failure that kept its parts: abort the multipart upload and remove the checkpoint. */
  discard?: (() => Promise<void>) | undefined
}

/** One object to send: what the handle (`upload()`, or a file of `uploadMany()`) hands the engine. */
export interface ObjectJob {
  source: unknown
  fields: AssetFields
  /** Key below the credentials' directory, when the caller chose one. */
  key: string | undefined
  transfer: TransferSettings
  /** This attempt's controller: a failure or an abort stops every request of it. */
  stop: AbortController
  /** The caller's abort (`abort()`, `signal`): a failure after it keeps nothing. */
  cancelled: AbortSignal
  gate: Gate | undefined
  progress: ProgressTracker
  state: UploadState
}

/** An object complete in the storage, and the material that registers it. */
export interface UploadedObject {
  material: MaterialInput
  /**
   * When an earlier run sent material-save for this object without learning the outcome (its
   * checkpoint says so): the asset may exist already.
   */
  saveSentAt: number | undefined
  /** Before material-save is sent: the checkpoint records that it was, so a crash cannot lead to a second save. */
  saving(): Promise<void>
  /** material-save was refused (it created nothing): the checkpoint forgets that it was sent. */
  saveRefused(): Promise<void>
  /** Forget the checkpoint: call once the asset is saved. */
  finish(): Promise<void>
}
