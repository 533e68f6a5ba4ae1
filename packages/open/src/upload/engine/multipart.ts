import { type Logger, UploadError } from '@service-sdk/core'
import { crc64Combine } from '../crc64/crc64.ts'
import type { OssClient } from '../oss/connection.ts'
import { isOssFailure } from '../oss/failure.ts'
import type { DonePart } from '../oss/types.ts'
import type { RandomAccessSource } from '../platform/platform.ts'
import type { ProgressTracker } from '../run/progress.ts'
import type { OssCaller } from './oss-call.ts'
import type { PartFeed, PartJob } from './part-feed.ts'
import { sourceError } from './source-error.ts'

export interface MultipartContext {
  key: string
  /** The object's type, where the signer has no table for its key's extension (a browser File's). */
  type: string | undefined
  oss: OssCaller
  progress: ProgressTracker
  parallel: number
  /** The upload's stop signal: a failed part stops the others through it. */
  stop: AbortController
  logger: Logger
  /** Called once the upload id is known (before any part), and after each stored part. */
  onState(state: { uploadId: string; parts: DonePart[] }): Promise<void> | void
}

/** What a multipart upload sent, and the CRC-64 the storage reported for the object. */
export interface SentParts {
  uploadId: string
  size: number
  reportedCrc: string | undefined
  crc: bigint | undefined
}

/**
 * Sends the parts of `feed` with `parallel` workers, then completes the upload. With `resume`,
 * the parts the server lists (ListParts) are kept: after a crash only the parts that were in
 * flight go up again.
 */
export async function sendMultipart(
  ctx: MultipartContext,
  feed: (stored: ReadonlySet<number>) => PartFeed,
  resume: ResumeParts | undefined,
): Promise<SentParts> {
  const done = new Map<number, DonePart>()
  const resumed = resume ? await listStored(ctx, resume, done) : undefined
  const uploadId =
    resumed ?? (await ctx.oss.call({ op: 'InitiateMultipartUpload' }, (c) => c.initiate(ctx.key, ctx.type)))
  await ctx.onState({ uploadId, parts: sorted(done) })
  for (const part of done.values()) ctx.progress.already(part.size)
  await sendParts(ctx, uploadId, feed(new Set(done.keys())), done)
  const all = sorted(done)
  const size = all.reduce((sum, p) => sum + p.size, 0)
  const reportedCrc = await complete(ctx, uploadId, all, size)
  return { uploadId, size, reportedCrc, crc: objectCrc(all) }
}

/** The parts the server holds of a resumed upload, into `done`; `undefined` when it is gone. */
async function listStored(
  ctx: MultipartContext,
  resume: ResumeParts,
  done: Map<number, DonePart>,
): Promise<string | undefined> {
  try {
    const listed = await ctx.oss.call({ op: 'ListParts' }, (c) => c.listParts(ctx.key, resume.uploadId))
    for (const part of listed)
      if (part.size === resume.expectedSize(part.number))
        done.set(part.number, { ...part, crc: await resume.crcOf(part) })
    ctx.logger.info('upload: resuming a multipart upload', { key: ctx.key, partsStored: done.size })
    return resume.uploadId
  } catch (error) {
    if (!(UploadError.isInstance(error) && error.ossCode === 'NoSuchUpload')) throw error
    ctx.logger.warn(
      'upload: the checkpoint names a multipart upload the server no longer has; starting over',
      {
        key: ctx.key,
      },
    )
    return undefined
  }
}

/** `parallel` workers take parts from the feed; the first failure stops the others, then is thrown. */
async function sendParts(
  ctx: MultipartContext,
  uploadId: string,
  parts: PartFeed,
  done: Map<number, DonePart>,
): Promise<void> {
  const worker = async () => {
    for (;;) {
      ctx.stop.signal.throwIfAborted()
      const job = await parts.next()
      if (!job) return
      const { etag, crc } = await ctx.oss.call({ op: 'UploadPart', partNumber: job.number }, (client) =>
        sendPart(client, ctx, uploadId, job),
      )
      done.set(job.number, { number: job.number, etag, size: job.size, crc: String(crc) })
      ctx.progress.stored(job.number, job.size)
      void ctx.onState({ uploadId, parts: sorted(done) })
    }
  }
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
}

/** CompleteMultipartUpload; resolves with the CRC-64 the storage reports for the object. */
function complete(
  ctx: MultipartContext,
  uploadId: string,
  parts: readonly DonePart[],
  size: number,
): Promise<string | undefined> {
  let sent = false
  return ctx.oss.call({ op: 'CompleteMultipartUpload' }, async (client) => {
    try {
      return await client.complete(ctx.key, uploadId, parts)
    } catch (error) {
      // An earlier attempt completed it and only its answer was lost (its CRC with it).
      if (sent && isOssFailure(error, 'NoSuchUpload') && (await client.size(ctx.key)) === size)
        return undefined
      throw error
    } finally {
      sent = true
    }
  })
}

function sorted(done: Map<number, DonePart>): DonePart[] {
  return [...done.values()].sort((a, b) => a.number - b.number)
}

/** A resumed upload: its id, the size each part must have, and the CRC of a part already stored. */
export interface ResumeParts {
  uploadId: string
  expectedSize(part: number): number
  crcOf(part: DonePart): Promise<string | undefined>
}

/**
 * The parts of a resumed upload: the size each must have, and each stored part's CRC, from the
 * checkpoint when it names the same part (same ETag), otherwise read again from the source.
 */
export function resumeParts(
  source: RandomAccessSource,
  uploadId: string,
  partSize: number,
  known: readonly DonePart[],
): ResumeParts {
  const start = (n: number) => (n - 1) * partSize
  const end = (n: number) => Math.min(source.size, n * partSize)
  return {
    uploadId,
    expectedSize: (n) => Math.max(0, end(n) - start(n)),
    async crcOf(part) {
      const saved = known.find((k) => k.number === part.number && k.etag === part.etag)?.crc
      return saved ?? String(await source.checksum(start(part.number), end(part.number)))
    },
  }
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
