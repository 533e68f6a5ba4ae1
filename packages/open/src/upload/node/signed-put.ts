/// <reference path="./mime.d.ts" />
import { createHmac } from 'node:crypto'
import { isIP } from 'node:net'
import { extname } from 'node:path'
import mime from 'mime'
import type { OssOptions, PutSigner, SignedPut } from '../oss-adapter.ts'

/**
 * PutObject requests made and signed here, as ali-oss 6.23 makes them on Node: the same URL, the
 * same headers (date, user agent, security token, length, the content type of the key's
 * extension from the same `mime` table) and the same OSS V1 signature (HMAC-SHA1 over the method,
 * content type, date, the `x-oss-*` headers and `/bucket/key`). Hand-written because ali-oss's
 * request building (date formatting, header copies, URL parsing and formatting) cost a small
 * file about as much CPU as sending it (bench/upload); every file's one request goes through
 * here. `signed-put.test.ts` holds it to ali-oss's own output.
 */
export function putSigner(options: OssOptions, userAgent: string): PutSigner {
  const { endpoint, bucket, accessKeyId, accessKeySecret, stsToken } = options
  // ali-oss addresses an IP endpoint by path and names the bucket in a Host header of its default
  // region (the simulator is one); any other endpoint gets the bucket as a subdomain.
  const ip = isIP(endpoint.hostname) !== 0
  const origin = `${endpoint.protocol}//${ip ? '' : `${bucket}.`}${endpoint.host}`
  const host = ip ? `${bucket}.oss-cn-hangzhou.aliyuncs.com` : undefined
  return (name, size) => {
    const key = name.replace(/^\/+/, '')
    const date = new Date().toUTCString()
    const type = mime.getType(extname(key)) ?? undefined
    const headers: SignedPut['headers'] = { 'x-oss-date': date, 'User-Agent': userAgent }
    if (stsToken) headers['x-oss-security-token'] = stsToken
    headers['Content-Length'] = String(size)
    if (type) headers['Content-Type'] = type
    const signed = [`PUT\n\n${type ?? ''}\n${date}\nx-oss-date:${date}\n`]
    if (stsToken) signed.push(`x-oss-security-token:${stsToken.trim()}\n`)
    signed.push(`/${bucket}/${key}`)
    const signature = createHmac('sha1', accessKeySecret).update(signed.join('')).digest('base64')
    headers.authorization = `OSS ${accessKeyId}:${signature}`
    if (host) headers.host = host
    return { url: `${origin}/${escapeKey(key)}`, headers }
  }
}

/** The key in the URL path: encoded except for `/`, `+` as `%2B` (ali-oss's `_escape`). */
function escapeKey(key: string): string {
  let encoded: string
  try {
    encoded = encodeURIComponent(key)
  } catch {
    // A lone surrogate: ali-oss (utility.encodeURIComponent) sends the key as it is.
    encoded = key
  }
  return encoded.replace(/%2F/g, '/').replace(/\+/g, '%2B')
}
