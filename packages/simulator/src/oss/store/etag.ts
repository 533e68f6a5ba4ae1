import { createHash } from 'node:crypto'
import { ObjectStoreError } from './store.ts'

/** `"<MD5 hex upper>"`: the ETag of an object put in one piece, and of a part. */
export function etagOf(md5: Uint8Array): string {
  return `"${Buffer.from(md5).toString('hex').toUpperCase()}"`
}

/** `"<hex>-<n>"`: MD5 over the parts' binary MD5s, then the part count (as OSS and S3 do). */
export function multipartEtag(partEtags: readonly string[]): string {
  const hash = createHash('md5')
  for (const etag of partEtags) hash.update(Buffer.from(unquote(etag), 'hex'))
  return `"${hash.digest('hex').toUpperCase()}-${partEtags.length}"`
}

function unquote(etag: string): string {
  const trimmed = etag.trim()
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1)
    : trimmed
}

/** ETags as clients send them back: quoted or not, any hex case. */
export function sameEtag(a: string, b: string): boolean {
  return unquote(a).toUpperCase() === unquote(b).toUpperCase()
}

/** The base64 Content-MD5 of a single-piece ETag, or undefined for a multipart one. */
export function contentMd5OfEtag(etag: string): string | undefined {
  const hex = unquote(etag)
  return /^[0-9A-F]{32}$/i.test(hex) ? Buffer.from(hex, 'hex').toString('base64') : undefined
}

/**
 * After the body: the announced length and Content-MD5 must hold, or nothing is committed.
 * A Content-MD5 that is not base64 of 16 bytes is as invalid as a wrong one.
 */
export function checkBody(
  received: { size: number; md5: Uint8Array },
  expected: { contentMd5?: string | undefined; contentLength?: number | undefined },
): void {
  if (expected.contentLength !== undefined && expected.contentLength !== received.size) {
    throw new ObjectStoreError(
      'IncompleteBody',
      `Content-Length was ${expected.contentLength} but ${received.size} bytes arrived.`,
    )
  }
  if (expected.contentMd5 !== undefined) {
    const want = Buffer.from(expected.contentMd5, 'base64')
    if (
      want.length !== 16 ||
      want.toString('base64') !== expected.contentMd5.trim() ||
      !want.equals(received.md5)
    ) {
      throw new ObjectStoreError('InvalidDigest', undefined, {
        'Content-MD5': expected.contentMd5,
        CalculatedMD5: Buffer.from(received.md5).toString('base64'),
      })
    }
  }
}
