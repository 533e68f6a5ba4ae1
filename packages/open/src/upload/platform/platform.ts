import type { ListableCheckpointStore, SourceFingerprint } from '../checkpoints/checkpoint.ts'
import { createCrc64 } from '../crc64/crc64.ts'
import type { SigningPlatform } from '../oss/connection.ts'
import type { OssBody, OssHttp } from '../oss/types.ts'

/**
 * What differs between Node and browsers: how sources are read, the HTTP layer of OSS requests,
 * and where checkpoints can be kept. `node/platform.ts` and `browser/platform.ts` implement it;
 * the browser build swaps one for the other (tsdown.config.ts), so no `node:` module is
 * reachable from the browser entry.
 */
export interface UploadPlatform {
  /**
   * Why this platform cannot read `source`, or `undefined` when it can. Synchronous and cheap:
   * checked before anything starts.
   */
  refuse(source: unknown): string | undefined
  /** Open the source (stat a file...). Throws `ServiceValidationError` for a file that is not there. */
  prepare(source: unknown): Promise<PreparedSource>
  /**
   * The HTTP layer of OSS requests, shared by every upload of a client (and every connection it
   * makes, oss/connection.ts): each request carries its upload's `RequestContext` (oss/types.ts).
   */
  readonly http: OssHttp
  /** What this platform adds to the requests it signs (Node: the `mime` table and ali-oss's User-Agent). */
  readonly signing: SigningPlatform
  /** The store behind `checkpoint: '<directory>'` (Node only: elsewhere it throws `ServiceValidationError`). */
  checkpointDirectory(directory: string): ListableCheckpointStore
}

/** Which object bytes a request carries: 0 for a PutObject, the part number for an UploadPart. */
export function partNumberOf(url: URL): number {
  const n = url.searchParams.get('partNumber')
  return n === null ? 0 : Number(n)
}

interface SourceBase {
  /** The name the source carries: a path's base name, `File.name`, a file stream's path. */
  fileName: string | undefined
  /** `Blob.type`, when the source has one. */
  contentType: string | undefined
  /** Identifies the bytes across processes, for a persisted checkpoint (files only). */
  fingerprint: SourceFingerprint | undefined
}

/** Bytes that can be read at any offset, again: a file, a Buffer, a Blob. */
export interface RandomAccessSource extends SourceBase {
  kind: 'random'
  size: number
  /** A fresh body for bytes [start, end): one per attempt. */
  body(start: number, end: number): OssBody
  /** Up to the first `bytes` bytes (image dimensions). */
  head(bytes: number): Promise<Uint8Array>
  /** The CRC-64 of bytes [start, end), read again (parts stored before a resume). */
  checksum(start: number, end: number): Promise<bigint>
}

/** Bytes that arrive once, in order: a stream. Parts are held in memory until sent. */
export interface SequentialSource extends SourceBase {
  kind: 'sequential'
  size: undefined
  /** The next `max` bytes (fewer only at the end) as chunks. */
  read(max: number): Promise<Uint8Array[]>
  /** Whether no byte is left (reads one chunk ahead). */
  ended(): Promise<boolean>
  /** The first bytes read so far (up to 64 KiB), for image dimensions. */
  head(): Uint8Array
  /** A body for chunks already read: may be made again for a retry. */
  body(chunks: readonly Uint8Array[], size: number): OssBody
  /** Stop reading and release the caller's stream. */
  cancel(): void
}

export type PreparedSource = RandomAccessSource | SequentialSource

/**
 * A Blob or File as a source: its size, name, type and fingerprint, read the same way everywhere;
 * `body` is how the platform sends a slice of it.
 */
export function blobSource(blob: Blob, body: RandomAccessSource['body']): RandomAccessSource {
  const file = blob instanceof File ? blob : undefined
  return {
    kind: 'random',
    size: blob.size,
    fileName: file?.name || undefined,
    contentType: blob.type || undefined,
    fingerprint: file?.name
      ? { name: file.name, size: file.size, lastModified: file.lastModified }
      : undefined,
    body,
    head: async (bytes) => new Uint8Array(await blob.slice(0, bytes).arrayBuffer()),
    checksum: (start, end) => blobChecksum(blob, start, end),
  }
}

/** The CRC-64 of a Blob's bytes [start, end), read 4 MiB at a time. */
export async function blobChecksum(blob: Blob, start: number, end: number): Promise<bigint> {
  const crc = createCrc64()
  for (let at = start; at < end; at += 4 * 1024 * 1024) {
    crc.update(new Uint8Array(await blob.slice(at, Math.min(end, at + 4 * 1024 * 1024)).arrayBuffer()))
  }
  return crc.value()
}
