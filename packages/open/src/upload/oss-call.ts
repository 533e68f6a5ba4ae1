import { type Logger, UploadError } from '@service-sdk/core'
import { sleep } from '@service-sdk/core/internal'
import type { Gate } from './gate.ts'
import type { UploadRetryPolicy } from './options.ts'
import { type OssClient, OssFailure } from './oss-adapter.ts'
import type { Lease, OssSession } from './session.ts'

/** Fresh credentials tried in a row for one request before giving up. */
const MAX_RENEWALS = 3

export interface Operation {
  /** The OSS operation, for logs and errors: `UploadPart`, `PutObject`... */
  op: string
  partNumber?: number
}

export type OssCaller = <T>(
  operation: Operation,
  run: (client: OssClient, lease: Lease) => Promise<T>,
) => Promise<T>

/**
 * One OSS request with the upload's recovery rules: an expiry answer gets fresh credentials and
 * a new client (not counted as a retry); no answer, 5xx, 408 and 429 are retried with backoff;
 * anything else, or the last failure, becomes an `UploadError` naming the part and OSS's code.
 * A stopped upload rejects with the stop reason at once.
 */
export function createOssCaller(deps: {
  session: OssSession
  retry: UploadRetryPolicy
  signal: AbortSignal
  logger: Logger
  /** The upload's pause gate: every attempt waits while paused. */
  gate?: Gate | undefined
}): OssCaller {
  const { gate } = deps
  return async (operation, run) => {
    let retries = 0
    let renewals = 0
    for (;;) {
      deps.signal.throwIfAborted()
      if (gate) await gate.pass(deps.signal)
      const lease = await deps.session.lease()
      try {
        return await (gate ? gate.track(() => run(lease.client, lease)) : run(lease.client, lease))
      } catch (error) {
        if (deps.signal.aborted) throw deps.signal.reason
        if (!(error instanceof OssFailure)) throw error
        if (error.kind === 'expired' && renewals < MAX_RENEWALS) {
          renewals++
          deps.logger.info('upload: the object storage refused the credentials; renewing them', {
            ...where(operation),
            ossCode: error.ossCode,
          })
          await deps.session.renew(lease)
          continue
        }
        if (error.kind === 'retryable' && retries < deps.retry.maxRetries) {
          const delay = backoff(retries++, deps.retry)
          deps.logger.warn('upload: retrying an object-storage request', {
            ...where(operation),
            code: error.code,
            status: error.status,
            retry: retries,
            delayMs: delay,
          })
          await sleep(delay, deps.signal)
          continue
        }
        throw uploadError(error, operation, retries + renewals + 1)
      }
    }
  }
}

function where(operation: Operation) {
  return operation.partNumber === undefined
    ? { op: operation.op }
    : { op: operation.op, partNumber: operation.partNumber }
}

export function uploadError(failure: OssFailure, operation: Operation, attempts: number): UploadError {
  const what =
    operation.partNumber === undefined ? operation.op : `part ${operation.partNumber} (${operation.op})`
  const advice =
    failure.kind === 'expired'
      ? 'The object storage kept refusing freshly issued STS credentials: check the service account behind sts-tmp.'
      : failure.kind === 'retryable'
        ? 'The storage is unavailable: start the upload again later.'
        : 'Start the upload again once the cause is fixed.'
  const id = failure.requestId ? ` (request id ${failure.requestId})` : ''
  return new UploadError({
    code: failure.code,
    ossCode: failure.ossCode,
    partNumber: operation.partNumber,
    requestId: failure.requestId,
    status: failure.status,
    isRetryable: failure.kind !== 'fatal',
    message: `Uploading ${what} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${failure.message}${id}. ${advice}`,
  })
}

/** Exponential, with half of it random (jitter). */
export function backoff(
  retry: number,
  policy: UploadRetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
