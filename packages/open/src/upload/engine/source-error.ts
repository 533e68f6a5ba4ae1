import { ServiceValidationError, UploadError } from '@service-sdk/core'

/** A read of the caller's stream; its failure is the source's, not the storage's. */
export async function readSource<T>(read: Promise<T>): Promise<T> {
  try {
    return await read
  } catch (error) {
    throw ServiceValidationError.isInstance(error) ? error : sourceError(error)
  }
}

/** The source itself failed (a file vanished, a stream errored): not retried. */
export function sourceError(cause: unknown, partNumber?: number): UploadError {
  const reason = cause instanceof Error ? cause.message : String(cause)
  return new UploadError({
    code: 'source_error',
    partNumber,
    message: `Reading the source failed (${reason}): nothing was saved. Check the file or stream and upload it again.`,
    cause,
  })
}
