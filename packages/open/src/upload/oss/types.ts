/**
 * What one upload attempt's requests go out with: that is how one connection per store access
 * serves many uploads.
 */
export interface RequestContext {
  /**
   * Cuts the upload's object-byte requests (PUT: PutObject, UploadPart). Small control requests
   * (initiate, complete, list, abort) run to their end, bounded by `timeoutMs`: an initiation cut
   * half-way would leave an upload on the server whose id nobody knows, to clean up.
   */
  signal: AbortSignal
  /** No byte sent or received for this long: the request fails (and is retried). */
  timeoutMs: number
  /** Bytes of an object body consumed by the connection; part 0 is a single PutObject. */
  onBodyBytes(part: number, bytes: number): void
}

/** What the platform's HTTP layer is handed for one request. */
export interface OssHttpRequest {
  method: string
  headers: Record<string, string | number>
  /** A small body (Complete's XML), or the body of a browser upload (a Blob). */
  content?: string | Uint8Array | Blob
  /** The body of an upload from Node, passed through untouched: a Readable, or a file range. */
  stream?: unknown
  /**
   * The upload's context: control requests read only `timeoutMs`; object-byte requests (PUT) are
   * cut by its signal and count their body bytes into it.
   */
  ctx: RequestContext
  /**
   * The URL's parts, when the signer made the URL from them: Node's HTTP layer takes them instead
   * of parsing the URL again.
   */
  target?: RequestTarget
}

/** Where a request goes, in parts (node:http's request options), and which object bytes it carries. */
export interface RequestTarget {
  protocol: string
  /** Without an IPv6 literal's brackets. */
  hostname: string
  /** `''` for the scheme's default. */
  port: string
  /** The path and query, encoded. */
  path: string
  /** 0 for a PutObject, the part number for an UploadPart (see `partNumberOf`). */
  part: number
}

/** An answer of the object store. */
export interface OssHttpResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>
  data: Uint8Array | string
}

/**
 * The platform's HTTP layer (node:http, XMLHttpRequest, fetch). A request without an answer
 * rejects with a `NoAnswerError` (no-answer.ts).
 */
export interface OssHttp {
  request(url: string, params: OssHttpRequest): Promise<OssHttpResponse>
}

/**
 * A request body, made by the platform: for Node (`stream`) a Readable or a file range that our
 * HTTP layer reads itself; for browsers (`content`) a Blob. `failure` records an error of the
 * source itself (a file that vanished, a caller's stream that failed): not the network's fault.
 */
export interface OssBody {
  size: number
  stream?: unknown
  content?: Uint8Array | Blob
  failure?: unknown
  /** The CRC-64/ECMA of the bytes this body sent: ask once the request succeeded. */
  checksum(): bigint | Promise<bigint>
}

export interface DonePart {
  number: number
  etag: string
  size: number
  /** The part's CRC-64/ECMA as a decimal string, computed from the source (absent when unknown). */
  crc?: string | undefined
}

/** A multipart upload the storage holds (ListMultipartUploads). */
export interface OpenUpload {
  key: string
  uploadId: string
  /** When it was initiated, epoch milliseconds (NaN when the storage did not say). */
  initiated: number
}

/** Where the next page of ListMultipartUploads starts. */
export interface UploadsMarker {
  key: string
  uploadId: string
}

/**
 * The requests an upload makes, on one access's connection; each carries its upload attempt's
 * context. A failure rejects with an `OssFailure` (failure.ts).
 */
export interface OssOperations {
  /** PutObject; resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  put(key: string, body: OssBody, ctx: RequestContext, type?: string): Promise<string | undefined>
  /** InitiateMultipartUpload; resolves with the upload id. */
  initiate(key: string, ctx: RequestContext, type?: string): Promise<string>
  /** UploadPart; resolves with the part's ETag. */
  uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: OssBody,
    ctx: RequestContext,
  ): Promise<string>
  /** CompleteMultipartUpload; resolves with the object's CRC-64 as the storage reports it. */
  complete(
    key: string,
    uploadId: string,
    parts: readonly DonePart[],
    ctx: RequestContext,
  ): Promise<string | undefined>
  /** DeleteObject. */
  remove(key: string, ctx: RequestContext): Promise<void>
  /** AbortMultipartUpload. */
  abort(key: string, uploadId: string, ctx: RequestContext): Promise<void>
  /** One page of ListParts (up to 1000) after part `after`, and where the next starts. */
  listPartsPage(
    key: string,
    uploadId: string,
    after: string | undefined,
    ctx: RequestContext,
  ): Promise<{ parts: DonePart[]; next: string | undefined }>
  /** One page of ListMultipartUploads under `prefix` (up to 1000), and where the next starts. */
  listUploadsPage(
    prefix: string,
    after: UploadsMarker | undefined,
    ctx: RequestContext,
  ): Promise<{ uploads: OpenUpload[]; next: UploadsMarker | undefined }>
  /** HeadObject: the object's size; rejects with status 404 when there is no such object. */
  size(key: string, ctx: RequestContext): Promise<number>
}
