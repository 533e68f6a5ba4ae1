import { randomUUID } from 'node:crypto'
import type { UploadCredential } from '@service-sdk/core'
import { explain } from '../output.ts'
import { type Finding, fail, messageOf, ok, skip, warn } from './finding.ts'
import { send } from './http.ts'
import { type Bucket, bucketOf, objectUrl, ossFailure, signedHeaders } from './oss-request.ts'
import type { OpenTokenCheck } from './service.ts'

const CHECK = 'sts-write'
/** The probe's bytes: text that says what it is, should it ever be found. */
const PROBE = 'service-sdk doctor: a write probe, removed right after it was written\n'

/** The STS check, and the credential the CORS check needs (its secrets are redacted from the output). */
export interface StorageCheck {
  finding: Finding
  credential?: UploadCredential
  bucket?: Bucket
}

/**
 * A fresh credential from sts-tmp writes a small probe object under its `dir` and removes it:
 * what an upload needs of the object store, without making an asset (no material-save).
 */
export async function checkStsWrite(token: OpenTokenCheck, timeoutMs: number): Promise<StorageCheck> {
  if (!token.open)
    return { finding: skip(CHECK, 'not checked: needs an accepted open token (see open-token)') }
  let credential: UploadCredential
  let bucket: Bucket
  try {
    credential = await token.open.credentials()
    bucket = bucketOf(credential)
  } catch (error) {
    const { hint } = await explain(error)
    return {
      finding: fail(
        CHECK,
        `sts-tmp gave no usable credential: ${messageOf(error)}`,
        hint ?? 'The service behind sts-tmp is failing: run again, or ask the service',
      ),
    }
  }
  const key = `${credential.dir}service-sdk-doctor-${randomUUID()}.txt`
  const finding = await probe(credential, bucket, key, timeoutMs)
  return { finding, credential, bucket }
}

async function probe(
  credential: UploadCredential,
  bucket: Bucket,
  key: string,
  timeoutMs: number,
): Promise<Finding> {
  const url = objectUrl(bucket, key)
  const where = `bucket ${bucket.name} at ${bucket.origin}`
  const put = await send(
    url,
    {
      method: 'PUT',
      headers: signedHeaders(credential, 'PUT', key, 'text/plain'),
      body: PROBE,
    },
    timeoutMs,
  )
  if ('error' in put)
    return fail(
      CHECK,
      `the object store at ${bucket.origin} did not answer: ${put.error}`,
      "sts-tmp's endPoint must be reachable from here: check the network, proxies and firewalls",
    )
  if (put.status !== 200) {
    const { code, text } = ossFailure(put.status, put.body)
    return fail(
      CHECK,
      `PutObject of ${key} in ${where} refused: ${text}`,
      writeAdvice(code, put.status, bucket),
    )
  }
  const removed = await send(
    url,
    { method: 'DELETE', headers: signedHeaders(credential, 'DELETE', key) },
    timeoutMs,
  )
  if ('error' in removed || removed.status !== 204)
    return warn(
      CHECK,
      `wrote ${key} in ${where}, but could not remove it: ${'error' in removed ? removed.error : ossFailure(removed.status, removed.body).text}`,
      `Remove ${key} from bucket ${bucket.name} by hand (${PROBE.length} bytes of text), and let the STS policy allow oss:DeleteObject under ${bucket.dir} (aborted uploads are removed with it)`,
    )
  return ok(CHECK, `wrote and removed ${key} (${PROBE.length} bytes) in ${where}`)
}

/** What to do about a refused PutObject, by OSS's error code (docs/service/uploads.md). */
function writeAdvice(code: string, status: number, bucket: Bucket): string {
  if (code === 'AccessDenied')
    return `The STS credential may not write under ${bucket.dir}: the policy of the role behind sts-tmp must allow oss:PutObject on ${bucket.name}/${bucket.dir}*`
  if (code === 'RequestTimeTooSkewed') return "This machine's clock is off: set it right (NTP) and run again"
  if (
    ['SignatureDoesNotMatch', 'InvalidAccessKeyId', 'InvalidSecurityToken', 'SecurityTokenExpired'].includes(
      code,
    )
  )
    return `The object store does not accept sts-tmp's credential (${code}): check this machine's clock, then the service's STS set-up`
  if (status >= 500) return 'The object store is failing: run the check again later'
  return `The object store refused the write with ${code}: see its documentation for that code`
}
