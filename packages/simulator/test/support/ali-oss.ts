import { createRequire } from 'node:module'
import type { Readable } from 'node:stream'

/**
 * The real, unmodified ali-oss client, typed for what the tests use (its bundled types are loose
 * and the package has no declaration file).
 */
export interface AliOssResponse {
  status: number
  headers: Record<string, string | undefined>
}

export interface AliOssCheckpoint {
  uploadId: string
  doneParts: { number: number; etag: string }[]
  [field: string]: unknown
}

export interface AliOssRequestParams {
  method: string
  object: string
  bucket: string
  subres?: unknown
  content?: Buffer | string
  mime?: string
  headers?: Record<string, string>
  successStatuses?: number[]
  xmlResponse?: boolean
}

export interface AliOssPart {
  PartNumber: string
  ETag: string
  Size: string
  LastModified: string
}

export interface AliOssClient {
  put(
    name: string,
    file: Buffer | string | Readable,
    options?: { headers?: Record<string, string>; mime?: string; meta?: Record<string, string> },
  ): Promise<{ name: string; res: AliOssResponse }>
  putStream(
    name: string,
    stream: Readable,
    options?: { contentLength?: number; mime?: string },
  ): Promise<{ res: AliOssResponse }>
  get(
    name: string,
    options?: { headers?: Record<string, string> },
  ): Promise<{ content: Buffer; res: AliOssResponse }>
  getStream(name: string): Promise<{ stream: Readable; res: AliOssResponse }>
  head(name: string): Promise<{ status: number; meta: Record<string, string> | null; res: AliOssResponse }>
  delete(name: string): Promise<{ res: AliOssResponse }>
  multipartUpload(
    name: string,
    file: string | Buffer,
    options?: {
      partSize?: number
      parallel?: number
      mime?: string
      checkpoint?: AliOssCheckpoint
      progress?: (p: number, checkpoint: AliOssCheckpoint | undefined) => void | Promise<void>
    },
  ): Promise<{ name: string; etag: string; res: AliOssResponse }>
  initMultipartUpload(
    name: string,
    options?: { mime?: string },
  ): Promise<{ uploadId: string; res: AliOssResponse }>
  uploadPart(
    name: string,
    uploadId: string,
    partNo: number,
    file: string,
    start: number,
    end: number,
  ): Promise<{ etag: string; res: AliOssResponse }>
  completeMultipartUpload(
    name: string,
    uploadId: string,
    parts: { number: number; etag: string }[],
  ): Promise<{ etag: string; res: AliOssResponse }>
  abortMultipartUpload(name: string, uploadId: string): Promise<{ res: AliOssResponse }>
  listUploads(query?: Record<string, string | number>): Promise<{
    uploads: { name: string; uploadId: string; initiated: string }[]
    nextKeyMarker: string
    nextUploadIdMarker: string
    isTruncated: boolean
    res: AliOssResponse
  }>
  listParts(
    name: string,
    uploadId: string,
    query?: Record<string, string | number>,
  ): Promise<{
    parts: AliOssPart | AliOssPart[]
    isTruncated: string
    nextPartNumberMarker: string
    res: AliOssResponse
  }>
  signatureUrl(
    name: string,
    options?: {
      expires?: number
      method?: string
      response?: Record<string, string>
      'Content-Type'?: string
    },
  ): string
  signatureUrlV4(method: string, expires: number, request?: unknown, objectName?: string): Promise<string>
  cancel(): void
  /** Internal, used to send bodies the public API never would (out-of-order Complete, bad XML). */
  _objectRequestParams(method: string, name: string, options: { subres?: unknown }): AliOssRequestParams
  request(params: AliOssRequestParams): Promise<{ status: number; res: AliOssResponse; data: unknown }>
}

/** What ali-oss rejects with. */
export interface AliOssError extends Error {
  code: string
  status: number
  requestId?: string
}

export interface AliOssOptions {
  accessKeyId: string
  accessKeySecret: string
  stsToken?: string
  bucket: string
  endpoint: string
  region?: string
  authorizationV4?: boolean
  cname?: boolean
  amendTimeSkewed?: number
  timeout?: number
  retryMax?: number
  /** A urllib look-alike: lets a test see raw response bodies. */
  urllib?: { request(url: string, params: unknown): Promise<unknown> }
}

const require = createRequire(import.meta.url)
const AliOss = require('ali-oss') as new (
  options: AliOssOptions & { refreshSTSTokenInterval?: number },
) => AliOssClient
const urllib = createRequire(require.resolve('ali-oss'))('urllib') as {
  request(url: string, params: unknown): Promise<{ data?: Buffer; headers: Record<string, string> }>
}

export function aliOss(options: AliOssOptions): AliOssClient {
  // A long refresh interval without a refresh function only silences ali-oss's "set refreshSTSToken" warning.
  return new AliOss({ refreshSTSTokenInterval: 3_600_000, ...options })
}

/** ali-oss's own HTTP client, recording each raw response body (error XML included). */
export function recordingUrllib(): { urllib: NonNullable<AliOssOptions['urllib']>; bodies: string[] } {
  const bodies: string[] = []
  return {
    bodies,
    urllib: {
      async request(url, params) {
        const result = await urllib.request(url, params)
        const err = result.headers['x-oss-err']
        bodies.push(err ? Buffer.from(err, 'base64').toString('utf8') : (result.data?.toString('utf8') ?? ''))
        return result
      },
    },
  }
}

/** The rejection of `promise`, typed; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<AliOssError> {
  try {
    await promise
  } catch (error) {
    return error as AliOssError
  }
  throw new Error('expected the call to fail')
}
