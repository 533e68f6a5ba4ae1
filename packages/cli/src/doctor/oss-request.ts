import { createHmac } from 'node:crypto'
import type { UploadCredential } from '@service-sdk/core'

// The object-store requests of `doctor`: PutObject and DeleteObject of its probe, signed with the
// STS credential (OSS signature V1, as the SDK's uploads sign them: docs/service/uploads.md), and
// the CORS preflight. Written here with node:crypto rather than imported: @service-sdk/open keeps
// its signer internal, and two unsigned-query requests do not justify a public export of it.

/** Where a credential's objects live, as the SDK (and a browser) addresses them. */
export interface Bucket {
  /** `https://<bucket>.<endpoint host>`, or the endpoint itself when its host is an IP address. */
  origin: string
  name: string
  /** The prefix the credential may write under. */
  dir: string
}

/**
 * `endPoint` is a bare host (served over https) or a URL with its scheme (the simulator's). A
 * host name gets the bucket as a subdomain; an IP address is addressed by path, and the store
 * takes the bucket from the request (the simulator: its one bucket).
 */
export function bucketOf(credential: UploadCredential): Bucket {
  const endpoint = /^https?:\/\//i.test(credential.endPoint)
    ? credential.endPoint
    : `https://${credential.endPoint}`
  const { protocol, host, hostname } = new URL(endpoint)
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[')
  return {
    origin: `${protocol}//${ip ? '' : `${credential.bucket}.`}${host}`,
    name: credential.bucket,
    dir: credential.dir,
  }
}

/** The object's URL: the key encoded except for `/` (as the SDK sends it). */
export const objectUrl = (bucket: Bucket, key: string) =>
  `${bucket.origin}/${encodeURIComponent(key).replace(/%2F/g, '/')}`

/** The headers of a V1-signed request on `key` (no sub-resources, no Content-MD5). */
export function signedHeaders(
  credential: UploadCredential,
  method: 'PUT' | 'DELETE',
  key: string,
  contentType = '',
): Record<string, string> {
  const date = new Date().toUTCString()
  const headers: Record<string, string> = { 'x-oss-date': date }
  if (contentType) headers['content-type'] = contentType
  const token = credential.securityToken
  if (token) headers['x-oss-security-token'] = token
  // x-oss-* headers, lower-cased and sorted, then the canonical resource.
  const toSign = `${method}\n\n${contentType}\n${date}\nx-oss-date:${date}\n${token ? `x-oss-security-token:${token}\n` : ''}/${credential.bucket}/${key}`
  const signature = createHmac('sha1', credential.accessKeySecret).update(toSign).digest('base64')
  headers.authorization = `OSS ${credential.accessKeyId}:${signature}`
  return headers
}

/** An OSS XML error's code and message (`<Code>`, `<Message>`); the status alone when there is none. */
export function ossFailure(status: number, body: string): { code: string; text: string } {
  const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1]
  const code = field('Code') ?? `HTTP ${status}`
  const message = field('Message')
  return { code, text: `${status} ${code}${message ? `: ${message}` : ''}` }
}
