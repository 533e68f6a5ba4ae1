import { ServiceError } from '@service-sdk/core'

/** Why a request got no answer from the storage. */
export type NoAnswerCode = 'connection_error' | 'timeout' | 'aborted'

/**
 * A request our HTTP layer (node/http.ts, browser/http.ts) sent without an answer from the
 * storage. `status` is -2 for a timeout, -1 otherwise (the network failed, or the upload's signal
 * cut the request), as ali-oss's errors say it; `failureOf` (failure.ts) classifies it by
 * `status`, so this never reaches a caller, who gets an `UploadError`.
 */
export class NoAnswerError extends ServiceError {
  static override readonly kind: string = 'NoAnswerError'
  override readonly code: NoAnswerCode
  readonly status: -1 | -2

  constructor(code: NoAnswerCode, message: string) {
    super(message, { code, isRetryable: code !== 'aborted' })
    this.code = code
    this.status = code === 'timeout' ? -2 : -1
  }
}
