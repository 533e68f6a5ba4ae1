import { directoryPrefix } from './key.ts'
import type { EngineDeps } from './object-job.ts'
import { parseWith } from './option-rules.ts'
import { cleanupOptionsRule, type ResolvedDefaults } from './options.ts'
import type { OpenUpload } from './oss/types.ts'
import { ossCaller } from './oss-call.ts'
import type { CleanupOptions, CleanupResult } from './types.ts'

const DAY = 24 * 3_600_000

/**
 * `open.cleanupUploads()`: aborts the multipart uploads under the credentials' directory that
 * were initiated more than `olderThanMs` ago (ListMultipartUploads, then AbortMultipartUpload for
 * each), so parts kept by failed uploads nobody retried stop taking space. Uploads whose start
 * time the storage does not say are left alone.
 */
export async function cleanupUploads(
  deps: EngineDeps & { defaults: ResolvedDefaults },
  options: CleanupOptions = {},
): Promise<CleanupResult> {
  const parsed = parseWith(cleanupOptionsRule, options, 'cleanupUploads options')
  const olderThanMs = parsed.olderThanMs ?? DAY
  const signal = parsed.signal ?? new AbortController().signal
  const context = { signal, timeoutMs: deps.defaults.timeoutMs, onBodyBytes: () => {} }
  const oss = ossCaller(deps, context, deps.defaults.retry)
  const { entry } = await oss.lease()
  const prefix = directoryPrefix(entry.access.dir)
  const listed = await oss.call({ op: 'ListMultipartUploads' }, (c) => c.listUploads(prefix))
  const cutoff = Date.now() - olderThanMs
  const result: CleanupResult = { aborted: [], failed: [] }
  for (const upload of listed.filter((u: OpenUpload) => u.initiated <= cutoff)) {
    try {
      await oss.call({ op: 'AbortMultipartUpload' }, (c) => c.abort(upload.key, upload.uploadId))
      result.aborted.push(upload)
    } catch (error) {
      signal.throwIfAborted()
      result.failed.push({ ...upload, error })
    }
  }
  deps.logger.info('upload: stale multipart uploads cleaned up', {
    aborted: result.aborted.length,
    failed: result.failed.length,
    kept: listed.length - result.aborted.length - result.failed.length,
  })
  return result
}
