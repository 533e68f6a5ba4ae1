import { ServiceValidationError } from '@service-sdk/core'
import type { ListableCheckpointStore } from '../checkpoints/checkpoint.ts'
import type { CheckedCleanupOptions, ResolvedDefaults } from '../options/options.ts'
import type { CleanupResult, StaleUpload } from '../types.ts'
import { directoryPrefix } from './key.ts'
import type { EngineDeps } from './object-job.ts'
import { type OssCaller, ossCaller } from './oss-call.ts'

const DAY = 24 * 3_600_000

/**
 * `open.cleanupUploads()`: aborts the multipart uploads that were started more than
 * `olderThanMs` ago and never finished, so the parts that failed uploads kept stop taking space.
 * Without `checkpoint`: those the storage lists under the access's directory
 * (ListMultipartUploads; uploads whose start time the storage does not say are left alone). With
 * `checkpoint`: those whose checkpoint went stale in that store, whose checkpoints are removed too
 * (through the upload proxy, which signs no listing, the only way). `parsed`: the options as
 * `cleanupOptionsRule` checked them (uploader.ts, before this module is loaded).
 */
export async function cleanupUploads(
  deps: EngineDeps & { defaults: ResolvedDefaults },
  parsed: CheckedCleanupOptions,
): Promise<CleanupResult> {
  const olderThanMs = parsed.olderThanMs ?? DAY
  const signal = parsed.signal ?? new AbortController().signal
  const context = { signal, timeoutMs: deps.defaults.timeoutMs, onBodyBytes: () => {} }
  const oss = ossCaller(deps, context, deps.defaults.retry)
  const store =
    typeof parsed.checkpoint === 'string'
      ? deps.platform.checkpointDirectory(parsed.checkpoint)
      : parsed.checkpoint
  const result: CleanupResult = { aborted: [], failed: [] }
  const stale = store ? await recorded(store, olderThanMs) : await listed(oss, olderThanMs)
  for (const upload of stale) {
    try {
      await oss.call({ op: 'AbortMultipartUpload' }, (c) => c.abort(upload.key, upload.uploadId))
      result.aborted.push(upload)
    } catch (error) {
      signal.throwIfAborted()
      if ((error as { ossCode?: string }).ossCode === 'NoSuchUpload') result.aborted.push(upload)
      else result.failed.push({ ...upload, error })
    }
  }
  if (store) await forget(store, olderThanMs, result)
  deps.logger.info('upload: stale multipart uploads cleaned up', {
    aborted: result.aborted.length,
    failed: result.failed.length,
  })
  return result
}

/** The storage's multipart uploads under the access's directory started before the cutoff. */
async function listed(oss: OssCaller, olderThanMs: number): Promise<StaleUpload[]> {
  const { entry } = await oss.lease()
  if (entry.access.remote) {
    throw new ServiceValidationError('cleanupUploads options', [
      {
        path: 'checkpoint',
        message:
          'is required through the upload proxy, which signs no listing: pass the store the uploads were made with (indexedDbCheckpoints())',
      },
    ])
  }
  const prefix = directoryPrefix(entry.access.dir)
  const uploads = await oss.call({ op: 'ListMultipartUploads' }, (c) => c.listUploads(prefix))
  const cutoff = Date.now() - olderThanMs
  return uploads.filter((u) => u.initiated <= cutoff)
}

/** The multipart uploads of the store's stale checkpoints (one that completed its object has none left). */
async function recorded(store: ListableCheckpointStore, olderThanMs: number): Promise<StaleUpload[]> {
  return (await store.stale(olderThanMs)).flatMap((c) =>
    c.uploadId === undefined || c.uploaded
      ? []
      : [{ key: c.key, uploadId: c.uploadId, initiated: c.updatedAt ?? Number.NaN }],
  )
}

/** Removes the stale checkpoints, but those whose upload could not be aborted (a later run tries again). */
async function forget(
  store: ListableCheckpointStore,
  olderThanMs: number,
  result: CleanupResult,
): Promise<void> {
  const failed = new Set(result.failed.map((f) => f.uploadId))
  for (const checkpoint of await store.stale(olderThanMs)) {
    if (checkpoint.uploadId === undefined || !failed.has(checkpoint.uploadId))
      await store.remove(checkpoint.source)
  }
}
