import {
  ServiceApiError,
  ServiceConnectionError,
  ServiceRateLimitError,
  ServiceResponseError,
  ServiceServerError,
  ServiceTimeoutError,
  UploadError,
} from '@service-sdk/core'

/**
 * Whether a failed material-save may have created the asset anyway: the request may have reached
 * the service and no answer said what it did (a timeout, a connection cut after sending, a 5xx,
 * an answer that could not be read, an abort while it was in flight). A refusal the service
 * answered (4xx, 429, an error code in the envelope) or a connection never made did not create it.
 */
export function saveMayHaveHappened(error: unknown, aborted: boolean): boolean {
  if (aborted || ServiceTimeoutError.isInstance(error) || ServiceServerError.isInstance(error)) return true
  if (ServiceResponseError.isInstance(error)) return true
  if (ServiceConnectionError.isInstance(error)) return error.reachedServer !== false
  if (ServiceRateLimitError.isInstance(error) || ServiceApiError.isInstance(error)) return false
  return false
}

/**
 * The error of an upload whose material-save was sent without a clear answer (now, or by an
 * earlier run the checkpoint remembers): it is not saved again unless the caller asks
 * (`saveAgain`), since that could make a second asset.
 */
export function saveOutcomeUnknown(key: string, cause?: unknown): UploadError {
  return new UploadError({
    code: 'save_outcome_unknown',
    isRetryable: false,
    message: `material-save was sent for ${key} without an answer saying whether the asset was created. Look for it in the space; to save it again anyway (it may make a second asset), retry with saveAgain: true.`,
    ...(cause === undefined ? {} : { cause }),
  })
}
