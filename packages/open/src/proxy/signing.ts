import type { UploadCredential, ValidationIssue } from '@service-sdk/core'
import { refuseRelativeKey } from '../upload/engine/key.ts'
import { checkedOptions, refusedCredential } from '../upload/oss/connection.ts'
import { typeOfKey } from '../upload/oss/content-type.ts'
import { hmacSha1 } from '../upload/oss/hmac.ts'
import {
  type ObjectSigner,
  type OssOp,
  type OssRequest,
  objectSigner,
  type SignedRequest,
  toObjectRequest,
} from '../upload/oss/request.ts'

/**
 * The requests a browser may have signed: the object requests of an upload into its own
 * directory. Not DeleteObject, GetObject, any listing, copy, ACL or other sub-resource: they
 * cannot even be asked for.
 */
const SIGNABLE: ReadonlySet<OssOp> = new Set([
  'PutObject',
  'InitiateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'ListParts',
  'AbortMultipartUpload',
  'HeadObject',
])
const WITH_UPLOAD_ID: ReadonlySet<OssOp> = new Set([
  'UploadPart',
  'CompleteMultipartUpload',
  'ListParts',
  'AbortMultipartUpload',
])
/** Requests one sign call may carry: a batch of parts started together. */
export const MAX_SIGN_REQUESTS = 100
// An upload id is printable ASCII (OSS's are hex); a type a MIME type token.
const UPLOAD_ID = /^[\x21-\x7e]{1,256}$/
const MIME_TYPE = /^[\w.+-]{1,63}\/[\w.+-]{1,63}$/

/** What a browser asks to have signed, checked: every request is one `SIGNABLE` of the caller's keys. */
export interface SignInput {
  requests: OssRequest[]
  /** The store refused a signature as expired: the proxy's credential may be stale. */
  renew: boolean
}

/** Why a sign request is refused: `outside` when a key is not the caller's (403), else malformed (400). */
export interface SignRefusal {
  issues: ValidationIssue[]
  outside: boolean
}

/** The checked input, or why it is refused (nothing is signed then). */
export async function checkSignInput(
  body: unknown,
  owns: (key: string) => boolean | Promise<boolean>,
): Promise<SignInput | SignRefusal> {
  const { requests, renew } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >
  if (!Array.isArray(requests) || requests.length > MAX_SIGN_REQUESTS) {
    const message = `must be a list of at most ${MAX_SIGN_REQUESTS} requests`
    return { issues: [{ path: 'requests', message }], outside: false }
  }
  const issues: ValidationIssue[] = []
  const checked: OssRequest[] = []
  let outside = false
  for (const [i, raw] of requests.entries()) {
    const request = checkRequest(raw, `requests.${i}`, issues)
    if (!request) continue
    if (await owns(request.key)) checked.push(request)
    else {
      outside = true
      issues.push({ path: `requests.${i}.key`, message: "is not in the caller's upload directory" })
    }
  }
  if (renew !== undefined && typeof renew !== 'boolean')
    issues.push({ path: 'renew', message: 'must be a boolean' })
  return issues.length > 0 ? { issues, outside } : { requests: checked, renew: renew === true }
}

/** One request, rebuilt from the fields its operation takes (nothing else passes through). */
function checkRequest(raw: unknown, path: string, issues: ValidationIssue[]): OssRequest | undefined {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  const at = issues.length
  const op = r.op as OssOp
  if (!SIGNABLE.has(op)) {
    issues.push({ path: `${path}.op`, message: `must be one of ${[...SIGNABLE].join(', ')}` })
    return undefined
  }
  const key = typeof r.key === 'string' ? r.key : ''
  const badKey = refuseRelativeKey(key)
  if (badKey) issues.push({ path: `${path}.key`, message: badKey })
  const request: OssRequest = { op, key }
  if (WITH_UPLOAD_ID.has(op)) {
    if (typeof r.uploadId === 'string' && UPLOAD_ID.test(r.uploadId)) request.uploadId = r.uploadId
    else issues.push({ path: `${path}.uploadId`, message: 'must be an upload id' })
  }
  if (op === 'UploadPart') {
    const n = r.partNumber
    if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 10_000) request.partNumber = n
    else issues.push({ path: `${path}.partNumber`, message: 'must be an integer from 1 to 10000' })
  }
  if (op === 'ListParts') request.query = listPartsQuery(r.query, `${path}.query`, issues)
  if (op === 'CompleteMultipartUpload') request.content = { type: 'application/xml', length: 0 }
  if ((op === 'PutObject' || op === 'InitiateMultipartUpload') && r.type !== undefined) {
    if (typeof r.type === 'string' && MIME_TYPE.test(r.type)) request.type = r.type
    else issues.push({ path: `${path}.type`, message: 'must be a media type such as image/png' })
  }
  return issues.length === at ? request : undefined
}

/** ListParts' paging: `max-parts` (1 to 1000) and `part-number-marker` (a part number). */
function listPartsQuery(
  raw: unknown,
  path: string,
  issues: ValidationIssue[],
): Record<string, string | number> {
  const q = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  const query: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(q)) {
    if (
      name === 'max-parts' &&
      Number.isInteger(value) &&
      (value as number) >= 1 &&
      (value as number) <= 1000
    )
      query[name] = value as number
    else if (name === 'part-number-marker' && typeof value === 'string' && /^\d{1,5}$/.test(value))
      query[name] = value
    else issues.push({ path: `${path}.${name}`, message: 'is not a ListParts paging parameter' })
  }
  return query
}

/** What the browser gets back: where objects go, and each request signed in its URL until `expires`. */
export interface SignAnswer {
  endPoint: string
  bucket: string
  /** The caller's own directory. */
  dir: string
  /** Epoch seconds. */
  expires: number
  signed: Array<{ url: string; headers: Record<string, string> }>
}

/** Signers made once per credential: the key setup is not per request. */
const signers = new WeakMap<object, ObjectSigner>()

/**
 * Signs the checked requests in their URLs (OSS V1 query signatures), valid for `ttlSeconds`, with
 * the proxy's own credential; the browser never sees the credential's secret.
 */
export async function signRequests(
  credential: UploadCredential,
  input: SignInput,
  dir: string,
  ttlSeconds: number,
): Promise<SignAnswer> {
  let signer = signers.get(credential)
  if (!signer) {
    const options = checkedOptions(credential)
    if (typeof options === 'string') throw refusedCredential(options)
    // node:crypto's HMAC where there is one, so presigning is synchronous (hmac.ts).
    signer = objectSigner(options, { hmac: hmacSha1(options.accessKeySecret), typeOf: typeOfKey })
    signers.set(credential, signer)
  }
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds
  const made = input.requests.map((request) =>
    (signer as ObjectSigner).presign(toObjectRequest(request), expires),
  )
  // Synchronous with node:crypto; Web Crypto's (edge runtimes) are promises.
  const all = made.some((m) => m instanceof Promise) ? await Promise.all(made) : (made as SignedRequest[])
  const signed = all.map(({ url, headers }) => ({ url, headers }))
  return { endPoint: credential.endPoint, bucket: credential.bucket, dir, expires, signed }
}
