import type { Logger } from '@service-sdk/core'
import {
  array,
  atLeast,
  atMost,
  boolean,
  custom,
  number,
  object,
  optional,
  type Rule,
  string,
} from '../options/option-rules.ts'
import type { DonePart } from '../oss/types.ts'
import { type SourceFingerprint, sameSource } from './source-fingerprint.ts'

export type { SourceFingerprint }

/**
 * Where an upload stands, for resuming it after a crash. It holds no secret: no key, token or
 * signature, only where the bytes go and which parts are there. Plain JSON.
 */
export interface UploadCheckpoint {
  version: 1
  source: SourceFingerprint
  /** The storage the upload goes to; a resume with credentials for another one starts over. */
  endpoint: string
  bucket: string
  key: string
  partSize: number
  /** The multipart upload, once initiated. */
  uploadId?: string
  /** Parts known to be done; on resume the server's own list (ListParts) is what counts. */
  parts: DonePart[]
  /** The object is complete: only material-save is left. */
  uploaded?: boolean
  /**
   * When material-save was sent for it (epoch ms): from then until the checkpoint is removed, the
   * asset may exist, and the upload does not save again by itself (`save_outcome_unknown`).
   */
  saveSentAt?: number
  /** When this checkpoint was written (epoch ms): how stale an unfinished upload is. */
  updatedAt?: number
}

/**
 * Keeps checkpoints (in Node `checkpoint: '<directory>'` gives a file store; in a browser,
 * implement these three with localStorage or IndexedDB). `save` is called after the upload is
 * initiated and after each part; `remove` once the asset is saved or the upload is aborted.
 */
export interface CheckpointStore {
  load(source: SourceFingerprint): UploadCheckpoint | undefined | Promise<UploadCheckpoint | undefined>
  save(checkpoint: UploadCheckpoint): void | Promise<void>
  remove(source: SourceFingerprint): void | Promise<void>
}

/**
 * A checkpoint store that can also list what it keeps (the built-in ones: a directory in Node,
 * `indexedDbCheckpoints()` in browsers): the unfinished uploads, and the stale ones to clean up.
 */
export interface ListableCheckpointStore extends CheckpointStore {
  /** The unfinished uploads kept here, newest first, stale ones left out. */
  list(): Promise<UploadCheckpoint[]>
  /** The checkpoints not written for `olderThanMs` (default: the store's own limit); they stay until removed. */
  stale(olderThanMs?: number): Promise<UploadCheckpoint[]>
}

// Hand-written rules (option-rules.ts), not zod: a checkpoint is read in the browser's upload
// path, where zod would be most of the page's weight (test/browser-size.test.ts).
const count = number({ int: true }, atLeast(0))
const fingerprintRule = object<SourceFingerprint>({ name: string(), size: count, lastModified: number({}) })
const partRule = object<DonePart>({
  number: number({ int: true }, atLeast(1), atMost(10_000)),
  etag: string(),
  size: count,
  crc: optional(string(undefined, (v) => (/^\d+$/.test(v) ? undefined : 'must be decimal digits'))),
})

/** A loaded checkpoint is input like any other: checked before it is trusted (unknown fields dropped). */
export const checkpointRule: Rule<UploadCheckpoint> = object<UploadCheckpoint>({
  version: custom<1>((v) => v === 1, 'Invalid input: expected 1'),
  source: fingerprintRule,
  endpoint: string(),
  bucket: string(),
  key: string('must not be empty'),
  partSize: number({ int: true }, atLeast(1)),
  uploadId: optional(string('must not be empty')),
  parts: array(partRule),
  uploaded: optional(boolean),
  saveSentAt: optional(number({})),
  updatedAt: optional(number({})),
})

/** The checkpoint saved for `source`, when there is a valid one. */
export async function loadCheckpoint(
  store: CheckpointStore,
  source: SourceFingerprint,
  log: Logger,
): Promise<UploadCheckpoint | undefined> {
  let loaded: unknown
  try {
    loaded = await store.load(source)
  } catch (error) {
    log.warn('upload: the checkpoint could not be loaded; starting over', { error: String(error) })
    return undefined
  }
  if (loaded === undefined || loaded === null) return undefined
  const parsed = checkpointRule(loaded)
  if (parsed.issues.length > 0 || !sameSource(parsed.value.source, source)) {
    log.warn('upload: ignoring a checkpoint that does not match the source; starting over')
    return undefined
  }
  return parsed.value
}

export interface CheckpointWriter {
  /** Save this state; saves never overlap and the latest state wins. */
  save(checkpoint: UploadCheckpoint): Promise<void>
  remove(): Promise<void>
}

/** Failures to save are logged, not thrown: they cost resumability, not the upload. */
export function createCheckpointWriter(
  store: CheckpointStore,
  source: SourceFingerprint,
  log: Logger,
): CheckpointWriter {
  let latest: UploadCheckpoint | undefined
  let running: Promise<void> | undefined
  let removed = false

  const drain = async () => {
    while (latest !== undefined) {
      const next = latest
      latest = undefined
      try {
        if (!removed) await store.save(next)
      } catch (error) {
        log.warn('upload: the checkpoint could not be saved', { error: String(error) })
      }
    }
    running = undefined
  }

  return {
    save(checkpoint) {
      latest = checkpoint
      running ??= drain()
      return running
    },
    async remove() {
      removed = true
      latest = undefined
      await running
      try {
        await store.remove(source)
      } catch (error) {
        log.warn('upload: the checkpoint could not be removed', { error: String(error) })
      }
    },
  }
}
