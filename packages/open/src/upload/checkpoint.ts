import type { Logger } from '@service-sdk/core'
import { z } from 'zod'
import type { DonePart } from './oss-adapter.ts'
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

// Classic zod, as core's schemas: no module of the browser entry imports this one at run time; it
// loads with the upload engine, after the API's schemas (the sts-tmp answer) have loaded zod.
const count = z.int().nonnegative()
const fingerprintSchema = z.object({
  name: z.string(),
  size: count,
  lastModified: z.number(),
})

/** A loaded checkpoint is input like any other: checked before it is trusted. */
export const checkpointSchema = z.object({
  version: z.literal(1),
  source: fingerprintSchema,
  endpoint: z.string(),
  bucket: z.string(),
  key: z.string().min(1),
  partSize: z.int().positive(),
  uploadId: z.string().min(1).optional(),
  parts: z.array(
    z.object({
      number: z.int().min(1).max(10_000),
      etag: z.string(),
      size: count,
      crc: z.string().regex(/^\d+$/).optional(),
    }),
  ),
  uploaded: z.boolean().optional(),
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
  const parsed = checkpointSchema.safeParse(loaded)
  if (!parsed.success || !sameSource(parsed.data.source, source)) {
    log.warn('upload: ignoring a checkpoint that does not match the source; starting over')
    return undefined
  }
  const { uploadId, uploaded, ...rest } = parsed.data
  return {
    ...rest,
    ...(uploadId === undefined ? {} : { uploadId }),
    ...(uploaded === undefined ? {} : { uploaded }),
  }
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
