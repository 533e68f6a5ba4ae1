import { type Logger, UploadError } from '@service-sdk/core'
import type { OssCaller } from './oss-call.ts'

/** What was sent, and the CRC-64 the storage reported for the object it made of it. */
export interface SentObject {
  size: number
  /** Computed from the source while it was read (`undefined`: a part's is unknown). */
  crc: bigint | undefined
  /** `x-oss-hash-crc64ecma` of PutObject / CompleteMultipartUpload (`undefined`: not sent). */
  reported: string | undefined
}

/**
 * The end-to-end check: the object the storage made equals the bytes read from the source. A
 * mismatch deletes the object (it is not what was read; best effort) and throws an `UploadError`
 * `checksum_mismatch`; a store that sends no CRC (older ones) is not checked.
 */
export async function verifyObject(
  sent: SentObject,
  target: { key: string; oss: OssCaller; logger: Logger },
): Promise<void> {
  if (sent.reported === undefined || sent.crc === undefined) {
    target.logger.debug('upload: the object storage reported no CRC-64; the object is not verified', {
      key: target.key,
    })
    return
  }
  if (/^\d+$/.test(sent.reported) && BigInt(sent.reported) === sent.crc) return
  try {
    await target.oss.call({ op: 'DeleteObject' }, (client) => client.remove(target.key))
  } catch (error) {
    target.logger.warn('upload: the object that failed its integrity check could not be deleted', {
      key: target.key,
      error: error instanceof Error ? error.message : String(error),
    })
  }
  throw new UploadError({
    code: 'checksum_mismatch',
    isRetryable: true,
    message: `The stored object's CRC-64 (${sent.reported}) differs from the bytes read from the source (${sent.crc}): the bytes were damaged on the way, and the object was deleted. Retry the upload.`,
  })
}
