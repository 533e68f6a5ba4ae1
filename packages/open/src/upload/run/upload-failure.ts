import {
  ServiceApiError,
  ServiceConnectionError,
  ServiceTimeoutError,
  ServiceValidationError,
  UploadError,
} from '@service-sdk/core'
import { SpaceNotWritableError } from '../../errors.ts'

/**
 * Why an upload failed (an `uploadMany` file's `error`, a failed upload of `@service-sdk/react`):
 * the object upload (`UploadError`: part, OSS code, `save_outcome_unknown`...), an answer of the
 * service (`ServiceApiError` and its subclasses, from sts-tmp, org-info or material-save), the
 * network (`ServiceConnectionError`, `ServiceTimeoutError`), bad options or source
 * (`ServiceValidationError`), or the write rule (`SpaceNotWritableError`). `error.code` is the
 * union of their codes, and `error.supportId` the id to quote to support.
 */
export type UploadFailure =
  | UploadError
  | ServiceApiError
  | ServiceConnectionError
  | ServiceTimeoutError
  | ServiceValidationError
  | SpaceNotWritableError

const KINDS = [
  UploadError,
  ServiceApiError,
  ServiceConnectionError,
  ServiceTimeoutError,
  ServiceValidationError,
  SpaceNotWritableError,
]

/**
 * `error` when it is an {@link UploadFailure} (of any copy of the SDK), else an `UploadError`
 * `upload_failed` whose `cause` is `error` (what no upload step should throw: a bug, reported as
 * such rather than dropped).
 */
export function asUploadFailure(error: unknown): UploadFailure {
  if (KINDS.some((kind) => kind.isInstance(error))) return error as UploadFailure
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  return new UploadError({
    code: 'upload_failed',
    message: `The upload failed unexpectedly (${what}). Start it again; if it fails the same way, report it with this message.`,
    cause: error,
  })
}
