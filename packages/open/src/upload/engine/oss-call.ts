import { type Logger, UploadError } from '@service-sdk/core'
import { backoffDelay, type RetryPolicy, sleep } from '@service-sdk/core/internal'
import type { OssClient } from '../oss/connection.ts'
import { OssFailure } from '../oss/failure.ts'
import type { RequestContext } from '../oss/types.ts'
import type { Gate } from '../run/gate.ts'
import type { EngineDeps } from './object-job.ts'
import { type Lease, OssSession } from './session.ts'

/** Fresh credentials tried in a row for one request before giving up. */
const MAX_RENEWALS = 3

export interface Operation {
  /** The OSS operation, for logs and errors: `UploadPart`, `PutObject`... */
  op: string
  partNumber?: number
}

export type OssRun<T> = (client: OssClient, lease: Lease) => Promise<T>

/** The requests of one upload attempt (or one cleanup) on the client's shared credentials. */
export function ossCaller(
  deps: EngineDeps,
  context: RequestContext,
  retry: RetryPolicy,
  gate?: Gate | undefined,
): OssCaller {
  const { access, platform, logger } = deps
  const session = new OssSession({ access, platform, context, logger })
  return new OssCaller({ session, retry, signal: context.signal, logger, gate })
}

/**
 * One upload attempt's OSS requests with the upload's recovery rules: an expiry answer gets fresh
 * credentials and a new client (not counted as a retry); no answer, 5xx, 408 and 429 are retried
 * with core's backoff; anything else, or the last failure, becomes an `UploadError` naming the
 * part and OSS's code. A stopped upload rejects with the stop reason at once.
 */
export class OssCaller {
  readonly #session: OssSession
  readonly #retry: RetryPolicy
  readonly #signal: AbortSignal
  readonly #logger: Logger
  /** The upload's pause gate: every attempt waits while paused. */
  readonly #gate: Gate | undefined

  constructor(deps: {
    session: OssSession
    retry: RetryPolicy
    signal: AbortSignal
    logger: Logger
    gate?: Gate | undefined
  }) {
    this.#session = deps.session
    this.#retry = deps.retry
    this.#signal = deps.signal
    this.#logger = deps.logger
    this.#gate = deps.gate
  }

  /** The credential (and its client) the next request goes out with. */
  lease(): Promise<Lease> {
    return this.#session.lease()
  }

  async call<T>(operation: Operation, run: OssRun<T>): Promise<T> {
    const tries = { retries: 0, renewals: 0 }
    for (;;) {
      this.#signal.throwIfAborted()
      if (this.#gate) await this.#gate.pass(this.#signal)
      const lease = await this.#session.lease()
      try {
        return await this.#attempt(lease, run)
      } catch (error) {
        if (this.#signal.aborted) throw this.#signal.reason
        if (!(error instanceof OssFailure)) throw error
        await this.#recover(error, operation, lease, tries)
      }
    }
  }

  #attempt<T>(lease: Lease, run: OssRun<T>): Promise<T> {
    const gate = this.#gate
    return gate ? gate.track(() => run(lease.client, lease)) : run(lease.client, lease)
  }

  /** Renew or wait before the next attempt; throws when the failure is final. */
  async #recover(
    error: OssFailure,
    operation: Operation,
    lease: Lease,
    tries: { retries: number; renewals: number },
  ): Promise<void> {
    if (error.kind === 'expired' && tries.renewals < MAX_RENEWALS) {
      tries.renewals++
      this.#logger.info('upload: the object storage refused the credentials; renewing them', {
        ...where(operation),
        ossCode: error.ossCode,
      })
      await this.#session.renew(lease)
      return
    }
    if (error.kind === 'retryable' && tries.retries < this.#retry.maxRetries) {
      // No Retry-After is read from OSS's answers: the delay is the backoff's alone.
      const delay = backoffDelay(tries.retries++, this.#retry, undefined) ?? 0
      this.#logger.warn('upload: retrying an object-storage request', {
        ...where(operation),
        code: error.code,
        status: error.status,
        retry: tries.retries,
        delayMs: delay,
      })
      await sleep(delay, this.#signal)
      return
    }
    throw uploadError(error, operation, tries.retries + tries.renewals + 1)
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
