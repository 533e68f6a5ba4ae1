import { type Logger, ServiceValidationError, UploadError } from '@service-sdk/core'
import { abortable } from '@service-sdk/core/internal'
import { crc64Combine } from './crc64.ts'
import { MAX_PARTS } from './options.ts'
import { type DonePart, isOssFailure, type OssBody, type OssClient } from './oss-adapter.ts'
import type { OssCaller } from './oss-call.ts'
import type { RandomAccessSource, SequentialSource } from './platform.ts'
import type { ProgressTracker } from './progress.ts'

/** One part to send: its number, size, and a fresh body for each attempt. */
export interface PartJob {
  number: number
  size: number
  body(): OssBody
}

/** Hands out parts to the workers; `next` resolves `undefined` when there are no more. */
export interface PartFeed {
  next(): Promise<PartJob | undefined>
  /** Bytes handed out so far (a stream's size once the feed is exhausted). */
  readonly bytes: number
}

/** Parts of a file, Buffer or Blob, skipping those already stored. */
export function randomAccessFeed(
  source: RandomAccessSource,
  partSize: number,
  stored: ReadonlySet<number>,
): PartFeed {
  const count = Math.max(1, Math.ceil(source.size / partSize))
  let number = 0
  let bytes = 0
  return {
    async next() {
      while (++number <= count && stored.has(number)) {}
      if (number > count) return undefined
      const start = (number - 1) * partSize
      const end = Math.min(source.size, start + partSize)
      bytes += end - start
      const n = number
      return { number: n, size: end - start, body: () => source.body(start, end) }
    },
    get bytes() {
      return bytes
    },
  }
}

/**
 * Parts of a stream, read one at a time (workers take turns), each held in memory until it is
 * stored: at most `parallel` parts plus the one being read.
 */
export function sequentialFeed(
  source: SequentialSource,
  partSize: number,
  first: Uint8Array[],
  signal: AbortSignal,
): PartFeed {
  let number = 0
  let bytes = 0
  let pending: Uint8Array[] | undefined = first
  let finished = false
  let turn: Promise<unknown> = Promise.resolve()
  const read = async (): Promise<PartJob | undefined> => {
    if (finished) return undefined
    const chunks = pending ?? (await abortable(readSource(source.read(partSize)), signal))
    pending = undefined
    const size = chunks.reduce((sum, c) => sum + c.byteLength, 0)
    if (size < partSize) finished = true
    if (size === 0) return undefined
    if (++number > MAX_PARTS) {
      throw new UploadError({
        code: 'too_many_parts',
        message: `The stream is longer than ${MAX_PARTS} parts of ${partSize} bytes: pass a larger partSize.`,
      })
    }
    bytes += size
    return { number, size, body: () => source.body(chunks, size) }
  }
  return {
    next() {
      const job = turn.then(read)
      turn = job.catch(() => {})
      return job
    },
    get bytes() {
      return bytes
    },
  }
}

export interface MultipartContext {
  key: string
  call: OssCaller
  progress: ProgressTracker
  parallel: number
  /** The upload's stop signal: a failed part stops the others through it. */
  stop: AbortController
  logger: Logger
  /** Called once the upload id is known (before any part), and after each stored part. */
  onState(state: { uploadId: string; parts: DonePart[] }): Promise<void> | void
}

/**
 * Sends the parts of `feed` with `parallel` workers, then completes the upload. With `resume`,
 * the parts the server lists (ListParts) are kept: after a crash only the parts that were in
 * flight go up again. Resolves with the object's size.
 */
export async function sendMultipart(
  ctx: MultipartContext,
  feed: (stored: ReadonlySet<number>) => PartFeed,
  resume: ResumeParts | undefined,
): Promise<{ uploadId: string; size: number; reportedCrc: string | undefined; crc: bigint | undefined }> {
  const { key, call } = ctx
  const done = new Map<number, DonePart>()
  let uploadId = resume?.uploadId
  if (resume && uploadId) {
    try {
      const listed = await call({ op: 'ListParts' }, (c) => c.listParts(key, resume.uploadId))
      for (const part of listed)
        if (part.size === resume.expectedSize(part.number))
          done.set(part.number, { ...part, crc: await resume.crcOf(part) })
      ctx.logger.info('upload: resuming a multipart upload', { key, partsStored: done.size })
    } catch (error) {
      if (!(UploadError.isInstance(error) && error.ossCode === 'NoSuchUpload')) throw error
      ctx.logger.warn(
        'upload: the checkpoint names a multipart upload the server no longer has; starting over',
        {
          key,
        },
      )
      uploadId = undefined
    }
  }
  uploadId ??= await call({ op: 'InitiateMultipartUpload' }, (c) => c.initiate(key))
  const id = uploadId
  const sorted = () => [...done.values()].sort((a, b) => a.number - b.number)
  await ctx.onState({ uploadId: id, parts: sorted() })
  for (const part of done.values()) ctx.progress.already(part.size)

  const parts = feed(new Set(done.keys()))
  const worker = async () => {
    for (;;) {
      ctx.stop.signal.throwIfAborted()
      const job = await parts.next()
      if (!job) return
      const { etag, crc } = await call({ op: 'UploadPart', partNumber: job.number }, (client) =>
        sendPart(client, ctx, id, job),
      )
      done.set(job.number, { number: job.number, etag, size: job.size, crc: String(crc) })
      ctx.progress.stored(job.number, job.size)
      void ctx.onState({ uploadId: id, parts: sorted() })
    }
  }
  // The first failure stops the other workers (their requests are cut), then is thrown.
  const outcomes = await Promise.allSettled(
    Array.from({ length: ctx.parallel }, () =>
      worker().catch((error: unknown) => {
        if (!ctx.stop.signal.aborted) ctx.stop.abort(error)
        throw error
      }),
    ),
  )
  if (ctx.stop.signal.aborted) throw ctx.stop.signal.reason
  const failed = outcomes.find((o) => o.status === 'rejected')
  if (failed) throw failed.reason

  const all = sorted()
  const size = all.reduce((sum, p) => sum + p.size, 0)
  let sent = false
  const reportedCrc = await call({ op: 'CompleteMultipartUpload' }, async (client) => {
    try {
      return await client.complete(key, id, all)
    } catch (error) {
      // An earlier attempt completed it and only its answer was lost (its CRC with it).
      if (sent && isOssFailure(error, 'NoSuchUpload') && (await client.size(key)) === size) return undefined
      throw error
    } finally {
      sent = true
    }
  })
  return { uploadId: id, size, reportedCrc, crc: objectCrc(all) }
}

/** A resumed upload: its id, the size each part must have, and the CRC of a part already stored. */
export interface ResumeParts {
  uploadId: string
  expectedSize(part: number): number
  crcOf(part: DonePart): Promise<string | undefined>
}

/** The object's CRC-64 from its parts' (zlib's combine), or `undefined` when one is unknown. */
export function objectCrc(parts: readonly DonePart[]): bigint | undefined {
  let crc = 0n
  for (const part of parts) {
    if (part.crc === undefined) return undefined
    crc = crc64Combine(crc, BigInt(part.crc), part.size)
  }
  return crc
}

async function sendPart(
  client: OssClient,
  ctx: MultipartContext,
  uploadId: string,
  job: PartJob,
): Promise<{ etag: string; crc: bigint }> {
  ctx.progress.restart(job.number)
  const body = job.body()
  try {
    const etag = await client.uploadPart(ctx.key, uploadId, job.number, body)
    return { etag, crc: await body.checksum() }
  } catch (error) {
    throw body.failure === undefined ? error : sourceError(body.failure, job.number)
  }
}

/** A read of the caller's stream; its failure is the source's, not the storage's. */
export async function readSource<T>(read: Promise<T>): Promise<T> {
  try {
    return await read
  } catch (error) {
    throw ServiceValidationError.isInstance(error) ? error : sourceError(error)
  }
}

/** The source itself failed (a file vanished, a stream errored): not retried. */
export function sourceError(cause: unknown, partNumber?: number): UploadError {
  const reason = cause instanceof Error ? cause.message : String(cause)
  return new UploadError({
    code: 'source_error',
    partNumber,
    message: `Reading the source failed (${reason}): nothing was saved. Check the file or stream and upload it again.`,
    cause,
  })
}
