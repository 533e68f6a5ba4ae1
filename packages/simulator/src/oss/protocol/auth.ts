import { timingSafeEqual } from 'node:crypto'
import type { OssCredential } from './credentials.ts'
import type { OssErrorCode } from './errors.ts'
import { queryValue } from './request.ts'
import { type SignableRequest, signatureV1, stringToSignV1 } from './sign-v1.ts'
import { canonicalRequestV4, scopeV4, signatureV4, stringToSignV4, V4_ALGORITHM } from './sign-v4.ts'

/** How a request says who signed it: Authorization header or presigned query, V1 or V4. */
export type Authorization =
  | { scheme: 'anonymous' }
  | { scheme: 'malformed'; message: string; accessKeyId?: string }
  | { scheme: 'v1'; accessKeyId: string; signature: string; expires?: string }
  | {
      scheme: 'v4'
      accessKeyId: string
      date: string
      region: string
      product: string
      additionalHeaders: string[]
      signature: string
      /** Presigned URLs carry the time and lifetime in the query. */
      presigned?: { isoDate: string; expires: string }
    }

/** A refusal, in OSS terms. */
export interface AuthFailure {
  code: OssErrorCode
  message?: string
  fields?: Record<string, string>
}

/** Requests more than 15 minutes off the server clock are refused (RequestTimeTooSkewed). */
export const MAX_SKEW_MS = 15 * 60_000
const MAX_V4_EXPIRES_S = 7 * 24 * 3600

export function parseAuthorization(request: SignableRequest): Authorization {
  const header = request.headers.get('authorization')
  const { query } = request
  if (header) {
    const v1 = /^OSS ([^:\s]+):(\S+)$/.exec(header.trim())
    if (v1) return { scheme: 'v1', accessKeyId: v1[1] as string, signature: v1[2] as string }
    if (header.startsWith(`${V4_ALGORITHM} `)) {
      const fields = new Map(
        header
          .slice(V4_ALGORITHM.length + 1)
          .split(',')
          .map((part) => {
            const eq = part.indexOf('=')
            return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const
          }),
      )
      return v4Fields(fields.get('Credential'), fields.get('Signature'), fields.get('AdditionalHeaders'))
    }
    return { scheme: 'malformed', message: 'Authorization header is invalid.' }
  }
  const accessKeyId = queryValue(query, 'OSSAccessKeyId')
  if (accessKeyId !== undefined) {
    const signature = queryValue(query, 'Signature')
    const expires = queryValue(query, 'Expires')
    if (!signature || !expires)
      return { scheme: 'malformed', message: 'Signature and Expires are required.', accessKeyId }
    return { scheme: 'v1', accessKeyId, signature, expires }
  }
  if (queryValue(query, 'x-oss-signature-version') === V4_ALGORITHM) {
    const auth = v4Fields(
      queryValue(query, 'x-oss-credential'),
      queryValue(query, 'x-oss-signature'),
      queryValue(query, 'x-oss-additional-headers'),
    )
    const isoDate = queryValue(query, 'x-oss-date')
    const expires = queryValue(query, 'x-oss-expires')
    if (auth.scheme !== 'v4') return auth
    if (!isoDate || !expires)
      return { scheme: 'malformed', message: 'x-oss-date and x-oss-expires are required.' }
    return { ...auth, presigned: { isoDate, expires } }
  }
  return { scheme: 'anonymous' }
}

function v4Fields(
  credential: string | undefined,
  signature: string | undefined,
  additional: string | undefined,
): Authorization {
  const scope = credential?.split('/') ?? []
  const [accessKeyId, date, region, product, terminator] = scope
  if (
    scope.length !== 5 ||
    !accessKeyId ||
    !date ||
    !region ||
    !product ||
    terminator !== 'aliyun_v4_request' ||
    !signature
  ) {
    return {
      scheme: 'malformed',
      message: 'Authorization header is invalid.',
      ...(accessKeyId ? { accessKeyId } : {}),
    }
  }
  const additionalHeaders = additional ? additional.split(';').map((h) => h.trim().toLowerCase()) : []
  return { scheme: 'v4', accessKeyId, date, region, product, additionalHeaders, signature }
}

export interface AuthOptions {
  credentials: { get(accessKeyId: string): OssCredential | undefined }
  /** The time requests are signed against: a request's date, a signed URL's expiry. */
  now: number
  /** The time credentials expire against (the service's clock). Default `now`. */
  credentialNow?: number
  /** Signing region, without the `oss-` prefix. */
  region: string
}

type Signed = Extract<Authorization, { scheme: 'v1' | 'v4' }>
type Failed = { failure: AuthFailure }

const fail = (code: OssErrorCode, message?: string, fields?: Record<string, string>): Failed => ({
  failure: { code, ...(message ? { message } : {}), ...(fields ? { fields } : {}) },
})

/**
 * Checks a request the way OSS does, in this order: the scheme is well-formed; the time is
 * near the server's (or a presigned URL is unexpired); the key exists; its STS token is present,
 * matching and unexpired; the signature matches. Returns the credential, or why not.
 */
export function authenticate(
  request: SignableRequest,
  auth: Authorization,
  options: AuthOptions,
): { credential: OssCredential } | Failed {
  if (auth.scheme === 'anonymous')
    return fail('AccessDenied', 'Anonymous access is forbidden for this operation.')
  if (auth.scheme === 'malformed') return fail('InvalidArgument', auth.message)
  const time = auth.scheme === 'v1' ? timeV1(request, auth, options.now) : timeV4(request, auth, options)
  if ('failure' in time) return time
  const found = credentialOf(request, auth, options)
  if ('failure' in found) return found
  const mismatch = signatureMismatch(request, auth, found.credential, time.dateLine)
  return mismatch ?? found
}

/** `RequestTimeTooSkewed` when `at` is further than the allowed skew from the server's time. */
function skewed(requestTime: string, at: number, now: number): Failed | undefined {
  if (Math.abs(now - at) <= MAX_SKEW_MS) return undefined
  return fail('RequestTimeTooSkewed', undefined, {
    RequestTime: requestTime,
    ServerTime: new Date(now).toISOString(),
    MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
  })
}

/** The "Date" line of a V1 string to sign (a signed URL's Expires), or why the time is refused. */
function timeV1(
  request: SignableRequest,
  auth: Extract<Signed, { scheme: 'v1' }>,
  now: number,
): { dateLine: string } | Failed {
  if (auth.expires !== undefined) {
    if (!/^\d+$/.test(auth.expires)) return fail('InvalidArgument', 'Expires is not a number of seconds.')
    if (Number(auth.expires) * 1000 < now) {
      return fail('AccessDenied', 'Request has expired.', {
        Expires: new Date(Number(auth.expires) * 1000).toISOString(),
        ServerTime: new Date(now).toISOString(),
      })
    }
    return { dateLine: auth.expires }
  }
  const date = request.headers.get('x-oss-date') ?? request.headers.get('date')
  const at = date ? Date.parse(date) : Number.NaN
  if (!date || Number.isNaN(at)) return fail('AccessDenied', 'OSS authentication requires a valid Date.')
  return skewed(date, at, now) ?? { dateLine: date }
}

/** The request time of a V4 string to sign, or why the time (or scope) is refused. */
function timeV4(
  request: SignableRequest,
  auth: Extract<Signed, { scheme: 'v4' }>,
  options: AuthOptions,
): { dateLine: string } | Failed {
  const { now } = options
  const isoDate = auth.presigned?.isoDate ?? request.headers.get('x-oss-date') ?? ''
  const at = parseIsoBasic(isoDate)
  if (Number.isNaN(at)) return fail('AccessDenied', 'OSS authentication requires a valid x-oss-date.')
  if (isoDate.slice(0, 8) !== auth.date)
    return fail('InvalidArgument', 'Invalid signing date in Authorization header.')
  if (auth.product !== 'oss') return fail('InvalidArgument', `Invalid signing product ${auth.product}.`)
  if (auth.region !== options.region) {
    return fail(
      'InvalidArgument',
      `Invalid signing region in Authorization header: ${auth.region}, expected ${options.region}.`,
    )
  }
  if (auth.presigned) {
    const expires = Number(auth.presigned.expires)
    if (!/^\d+$/.test(auth.presigned.expires) || expires > MAX_V4_EXPIRES_S)
      return fail('InvalidArgument', 'x-oss-expires is invalid.')
    if (at - now > MAX_SKEW_MS) return skewed(isoDate, at, now) ?? fail('AccessDenied')
    if (at + expires * 1000 < now)
      return fail('AccessDenied', 'Request has expired.', { ServerTime: new Date(now).toISOString() })
  } else {
    const tooSkewed = skewed(isoDate, at, now)
    if (tooSkewed) return tooSkewed
  }
  const missing = auth.additionalHeaders.find((name) => !request.headers.has(name))
  if (missing) return fail('InvalidArgument', `Additional header ${missing} is not in the request.`)
  return { dateLine: isoDate }
}

/** The credential the request names, when its token is present, matching and unexpired. */
function credentialOf(
  request: SignableRequest,
  auth: Signed,
  options: AuthOptions,
): { credential: OssCredential } | Failed {
  const credential = options.credentials.get(auth.accessKeyId)
  const keyFields = { OSSAccessKeyId: auth.accessKeyId }
  if (!credential) return fail('InvalidAccessKeyId', undefined, keyFields)
  const token =
    request.headers.get('x-oss-security-token') ??
    queryValue(request.query, 'security-token') ??
    queryValue(request.query, 'x-oss-security-token')
  const expired =
    credential.expiresAt !== undefined && credential.expiresAt <= (options.credentialNow ?? options.now)
  if (credential.securityToken === undefined) {
    // A token makes OSS look the key up as an STS key, which a long-lived key is not.
    if (token !== undefined || expired) return fail('InvalidAccessKeyId', undefined, keyFields)
  } else {
    // Without its token an STS key id is unknown to OSS.
    if (token === undefined) return fail('InvalidAccessKeyId', undefined, keyFields)
    if (!same(token, credential.securityToken))
      return fail('InvalidSecurityToken', undefined, { EC: '0002-00000006' })
    if (expired) return fail('SecurityTokenExpired', undefined, { EC: '0002-00000007' })
  }
  return { credential }
}

/** `SignatureDoesNotMatch` (with what OSS echoes of the string it signed), or undefined. */
function signatureMismatch(
  request: SignableRequest,
  auth: Signed,
  credential: OssCredential,
  dateLine: string,
): Failed | undefined {
  const keyFields = { OSSAccessKeyId: auth.accessKeyId }
  if (auth.scheme === 'v1') {
    const stringToSign = stringToSignV1(request, dateLine)
    if (!same(auth.signature, signatureV1(credential.accessKeySecret, stringToSign))) {
      return fail('SignatureDoesNotMatch', undefined, {
        StringToSign: stringToSign,
        SignatureProvided: auth.signature,
        StringToSignBytes: hexBytes(stringToSign),
        ...keyFields,
      })
    }
  } else {
    const canonicalRequest = canonicalRequestV4(
      request,
      auth.additionalHeaders,
      auth.presigned ? 'x-oss-signature' : undefined,
    )
    const stringToSign = stringToSignV4(
      dateLine,
      scopeV4(auth.date, auth.region, auth.product),
      canonicalRequest,
    )
    const expected = signatureV4(
      credential.accessKeySecret,
      auth.date,
      auth.region,
      stringToSign,
      auth.product,
    )
    if (!same(auth.signature, expected)) {
      return fail('SignatureDoesNotMatch', undefined, {
        CanonicalRequest: canonicalRequest,
        StringToSign: stringToSign,
        SignatureProvided: auth.signature,
        ...keyFields,
      })
    }
  }
  return undefined
}

/** `20250102T030405Z` -> epoch ms (NaN if malformed). */
function parseIsoBasic(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  if (!m) return Number.NaN
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[]
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s)
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Real OSS adds the string to sign as hex bytes: it shows encoding mistakes plain text hides. */
function hexBytes(text: string): string {
  return Buffer.from(text, 'utf8')
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ')
}
