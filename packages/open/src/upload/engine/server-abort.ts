import { UploadError } from '@service-sdk/core'
import { DEFAULT_RETRY } from '@service-sdk/core/internal'
import type { TransferSettings } from '../options/options.ts'
import type { EngineDeps } from './object-job.ts'
import { ossCaller } from './oss-call.ts'

/** Short and few: the abort is a courtesy to the storage, the upload has already failed. */
const ABORT_RETRY = { ...DEFAULT_RETRY, maxRetries: 2, initialDelayMs: 200, maxDelayMs: 1_000 }

/**
 * Abort the multipart upload on the server, with a signal of its own (the upload's is cut).
 * Best effort: a failure is logged, the upload's own error is what the caller gets.
 */
export async function abortOnServer(
  deps: EngineDeps,
  transfer: TransferSettings,
  key: string,
  uploadId: string,
): Promise<void> {
  const signal = AbortSignal.timeout(Math.max(transfer.timeoutMs, 1) * 3)
  const context = { signal, timeoutMs: transfer.timeoutMs, onBodyBytes: () => {} }
  const oss = ossCaller(deps, context, ABORT_RETRY)
  try {
    await oss.call({ op: 'AbortMultipartUpload' }, (client) => client.abort(key, uploadId))
    deps.logger.info('upload: multipart upload aborted on the server', { key, uploadId })
  } catch (error) {
    if (UploadError.isInstance(error) && error.ossCode === 'NoSuchUpload') return
    deps.logger.warn(
      "upload: the multipart upload could not be aborted on the server; its parts stay until the bucket's lifecycle rule removes them",
      { key, uploadId, error: error instanceof Error ? error.message : String(error) },
    )
  }
}
