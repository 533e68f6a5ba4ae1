import {
  type Logger,
  type MaterialInput,
  materialInputSchema,
  ServiceValidationError,
  UploadError,
  type ValidationIssue,
} from '@service-sdk/core'
import { parseInput } from '@service-sdk/core/internal'
import { createCheckpointWriter, loadCheckpoint, type UploadCheckpoint } from './checkpoint.ts'
import type { CredentialsCache } from './credentials-cache.ts'
import type { Gate } from './gate.ts'
import { IMAGE_HEAD_BYTES, type ImageSize, imageSize } from './image-size.ts'
import { type SentObject, verifyObject } from './integrity.ts'
import { directoryPrefix, MAX_KEY_BYTES, splitFileName, uniqueKey } from './key.ts'
import {
  type ResumeParts,
  randomAccessFeed,
  readSource,
  sendMultipart,
  sequentialFeed,
  sourceError,
} from './multipart.ts'
import { type AssetFields, defined, MAX_PARTS, type TransferSettings } from './options.ts'
import { type DonePart, endpointUrl, type OssBody } from './oss-adapter.ts'
import { createOssCaller, type OssCaller } from './oss-call.ts'
import type { PreparedSource, RandomAccessSource, UploadPlatform } from './platform.ts'
import type { ProgressTracker } from './progress.ts'
import { createOssSession, type OssSession } from './session.ts'

export interface EngineDeps {
  platform: UploadPlatform
  credentials: CredentialsCache
  logger: Logger
}

/** Where a multipart upload stands, kept in memory for `retry()` (a checkpoint without the source). */
export type ResumePoint = Omit<UploadCheckpoint, 'version' | 'source'>

/** What the handle shows, what a retry continues from, and what the cleanup needs. */
export interface UploadState {
  key?: string
  uploadId?: string | undefined
  /** The object is complete in the storage. */
  completed: boolean
  /** The latest state of the object upload, for a retry in this process. */
  point?: ResumePoint | undefined
  /** After a failure that kept its parts: abort the multipart upload and remove the checkpoint. */
  discard?: (() => Promise<void>) | undefined
}

export interface ObjectJob {
  source: unknown
  fields: AssetFields
  /** Key below the credentials' directory, when the caller chose one. */
  key: string | undefined
  transfer: TransferSettings
  /** This attempt's controller: a failure or an abort stops every request of it. */
  stop: AbortController
  /** The caller's abort (`abort()`, `signal`): a failure after it keeps nothing. */
  cancelled: AbortSignal
  gate: Gate | undefined
  progress: ProgressTracker
  state: UploadState
}

/** A source opened and described, before anything is sent. */
export interface PreparedObject {
  source: PreparedSource
  name: string
  extension: string
  /** The name the key carries. */
  fileName: string
  size: ImageSize | undefined
}

/** An object complete in the storage, and the material that registers it. */
export interface UploadedObject {
  material: MaterialInput
  /** Forget the checkpoint: call once the asset is saved. */
  finish(): Promise<void>
}

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp'])

/**
 * Opens the source and works out the asset's name and extension: every problem with the input
 * is a `ServiceValidationError` here, before any request.
 */
export async function prepareObject(deps: EngineDeps, job: ObjectJob): Promise<PreparedObject> {
  const source = await deps.platform.prepare(job.source)
  const fromFile = source.fileName ? splitFileName(source.fileName) : undefined
  const name = job.fields.name ?? fromFile?.name
  const extension = job.fields.extension ?? fromFile?.extension
  const issues: ValidationIssue[] = []
  if (!name) issues.push({ path: 'name', message: 'is required: the source carries no file name' })
  if (!extension) {
    issues.push({
      path: 'extension',
      message: source.fileName
        ? `is required: "${source.fileName}" has no extension`
        : 'is required: the source carries no file name (e.g. { name: "photo", extension: "jpg" })',
    })
  }
  if (!name || !extension) throw new ServiceValidationError('upload options', issues)
  // Every asset field is checked now; the key and size are placeholders until the object exists.
  parseInput(
    materialInputSchema,
    defined({ ...job.fields, name, extension, key: 'k', size: 0 }),
    'upload options',
  )
  if (job.transfer.checkpoint && !source.fingerprint) {
    deps.logger.warn(
      'upload: only files (a path, a File) can be resumed; this source is uploaded without a checkpoint',
    )
  }
  const wantsSize = job.fields.width === undefined && job.fields.height === undefined
  const size =
    wantsSize && source.kind === 'random' && IMAGE_EXTENSIONS.has(extension.toLowerCase())
      ? imageSize(await source.head(IMAGE_HEAD_BYTES))
      : undefined
  return { source, name, extension, fileName: source.fileName ?? `${name}.${extension}`, size }
}

/**
 * Sends the object: one PUT when it fits in a part, otherwise a multipart upload with parallel
 * parts; resumes from `state.point` (a retry) or a checkpoint when there is one. On failure the
 * stored parts and the checkpoint are kept for a retry (`keepPartsOnFailure`, files and bytes
 * only); on abort, or when they are not kept, the multipart upload is aborted on the server and
 * the checkpoint removed. Then the reason is thrown.
 */
export async function sendObject(
  deps: EngineDeps,
  job: ObjectJob,
  prepared: PreparedObject,
): Promise<UploadedObject> {
  const { source } = prepared
  const { stop, state, transfer } = job
  const signal = stop.signal
  const session = createOssSession({
    credentials: deps.credentials,
    http: deps.platform.http({
      signal,
      timeoutMs: transfer.timeoutMs,
      onBodyBytes: (part, bytes) => job.progress.sent(part, bytes),
    }),
    signal,
    logger: deps.logger,
  })
  const call = createOssCaller({
    session,
    retry: transfer.retry,
    signal,
    logger: deps.logger,
    gate: job.gate,
  })
  const fingerprint = transfer.checkpoint ? source.fingerprint : undefined
  const writer =
    transfer.checkpoint && fingerprint
      ? createCheckpointWriter(transfer.checkpoint, fingerprint, deps.logger)
      : undefined
  state.discard = undefined
  job.progress.begin()
  try {
    return await sendTo(deps, job, prepared, { call, session, writer })
  } catch (error) {
    const reason = signal.aborted ? signal.reason : error
    if (!signal.aborted) stop.abort(reason)
    if (source.kind === 'sequential') source.cancel()
    const open = state.uploadId !== undefined && !state.completed && state.key !== undefined
    const discard = async () => {
      state.discard = undefined
      state.point = undefined
      if (open) await abortOnServer(deps, transfer, state.key as string, state.uploadId as string)
      if (!state.completed) await writer?.remove()
    }
    if (open && transfer.keepPartsOnFailure && !job.cancelled.aborted && source.kind === 'random') {
      state.discard = discard
      deps.logger.info('upload: failed; its stored parts and checkpoint are kept for a retry', {
        key: state.key,
        uploadId: state.uploadId,
      })
    } else await discard()
    throw reason
  }
}

async function sendTo(
  deps: EngineDeps,
  job: ObjectJob,
  prepared: PreparedObject,
  io: { call: OssCaller; session: OssSession; writer: ReturnType<typeof createCheckpointWriter> | undefined },
): Promise<UploadedObject> {
  const { source } = prepared
  const { progress, state, transfer } = job
  const { call, session, writer } = io
  const saved =
    state.point ??
    (transfer.checkpoint && writer && source.fingerprint
      ? await loadCheckpoint(transfer.checkpoint, source.fingerprint, deps.logger)
      : undefined)
  const lease = await session.lease()
  const credential = lease.entry.credential
  const dir = directoryPrefix(credential.dir)
  const resume =
    saved &&
    saved.endpoint === endpointUrl(credential.endPoint) &&
    saved.bucket === credential.bucket &&
    saved.key.startsWith(dir)
      ? saved
      : undefined
  if (saved && !resume)
    deps.logger.warn('upload: the checkpoint is for another storage or directory; starting over')
  const key = resume?.key ?? (job.key === undefined ? uniqueKey(dir, prepared.fileName) : dir + job.key)
  if (new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES) {
    throw new ServiceValidationError('upload options', [
      { path: 'key', message: `with the directory "${dir}" the key is longer than ${MAX_KEY_BYTES} bytes` },
    ])
  }
  state.key = key
  progress.key(key)
  const point = (change: Partial<ResumePoint>, partSize: number): ResumePoint => ({
    endpoint: endpointUrl(credential.endPoint),
    bucket: credential.bucket,
    key,
    partSize,
    parts: [],
    ...(state.uploadId === undefined ? {} : { uploadId: state.uploadId }),
    ...change,
  })
  const save = (change: Partial<ResumePoint>, partSize: number) => {
    state.point = point(change, partSize)
    const fingerprint = source.fingerprint
    return writer && fingerprint
      ? writer.save({ version: 1, source: fingerprint, ...state.point })
      : undefined
  }

  let size: number
  if (
    resume?.uploaded &&
    source.kind === 'random' &&
    (await call({ op: 'HeadObject' }, (c) => c.size(key))) === source.size
  ) {
    // Uploaded before a crash or a failed save; only material-save was left.
    progress.total(source.size)
    progress.already(source.size)
    size = source.size
  } else {
    progress.phase('uploading')
    const sent = await send(deps, job, prepared, {
      key,
      call,
      session,
      resume: resume?.uploaded ? undefined : resume,
      save,
    })
    try {
      await verifyObject(sent, { key, call, logger: deps.logger })
    } catch (error) {
      // The object is gone: a retry starts over.
      state.point = undefined
      state.uploadId = undefined
      await writer?.remove()
      throw error
    }
    size = sent.size
  }
  state.completed = true
  await save({ uploaded: true }, resume?.partSize ?? transfer.partSize)

  const dimensions =
    prepared.size ??
    (source.kind === 'sequential' && IMAGE_EXTENSIONS.has(prepared.extension.toLowerCase())
      ? imageSize(source.head())
      : undefined)
  const material = defined({
    key,
    folderId: job.fields.folderId,
    name: prepared.name,
    extension: prepared.extension,
    size,
    width: job.fields.width ?? dimensions?.width,
    height: job.fields.height ?? dimensions?.height,
    description: job.fields.description,
    tags: job.fields.tags,
    link: job.fields.link,
  }) as MaterialInput
  return { material, finish: () => writer?.remove() ?? Promise.resolve() }
}

interface SendContext {
  key: string
  call: OssCaller
  session: OssSession
  resume: ResumePoint | undefined
  save: (change: Partial<ResumePoint>, partSize: number) => Promise<void> | undefined
}

async function send(
  deps: EngineDeps,
  job: ObjectJob,
  prepared: PreparedObject,
  ctx: SendContext,
): Promise<SentObject> {
  const { source } = prepared
  const { progress, transfer, state } = job

  const put = async (size: number, body: () => OssBody): Promise<SentObject> => {
    let made: OssBody | undefined
    const reported = await ctx.call({ op: 'PutObject' }, async (client) => {
      progress.restart(0)
      made = body()
      try {
        return await client.put(ctx.key, made)
      } catch (error) {
        throw made.failure === undefined ? error : sourceError(made.failure)
      }
    })
    progress.stored(0, size)
    return { size, crc: await made?.checksum(), reported }
  }
  const multipart = async (
    partSize: number,
    feed: Parameters<typeof sendMultipart>[1],
  ): Promise<SentObject> => {
    if (ctx.resume?.uploadId) state.uploadId = ctx.resume.uploadId
    const result = await sendMultipart(
      {
        key: ctx.key,
        call: ctx.call,
        progress,
        parallel: transfer.parallel,
        stop: job.stop,
        logger: deps.logger,
        onState: ({ uploadId, parts }) => {
          state.uploadId = uploadId
          return ctx.save({ uploadId, parts }, partSize)
        },
      },
      feed,
      ctx.resume?.uploadId && source.kind === 'random'
        ? resumeParts(source, ctx.resume.uploadId, partSize, ctx.resume.parts)
        : undefined,
    )
    return { size: result.size, crc: result.crc, reported: result.reportedCrc }
  }

  if (source.kind === 'random') {
    progress.total(source.size)
    const partSize = ctx.resume?.partSize ?? partSizeFor(source.size, transfer.partSize)
    if (!ctx.resume?.uploadId && source.size <= partSize)
      return put(source.size, () => source.body(0, source.size))
    return multipart(partSize, (stored) => randomAccessFeed(source, partSize, stored))
  }

  const first = await readSource(source.read(transfer.partSize))
  const firstSize = first.reduce((sum, c) => sum + c.byteLength, 0)
  if (await readSource(source.ended())) {
    progress.total(firstSize)
    return put(firstSize, () => source.body(first, firstSize))
  }
  const sent = await multipart(transfer.partSize, () =>
    sequentialFeed(source, transfer.partSize, first, job.stop.signal),
  )
  progress.total(sent.size)
  return sent
}

/**
 * The parts of a resumed upload: the size each must have, and each stored part's CRC, from the
 * checkpoint when it names the same part (same ETag), otherwise read again from the source.
 */
function resumeParts(
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

/** A part size that keeps the object within OSS's 10,000 parts (whole MiB when grown). */
export function partSizeFor(size: number, wanted: number): number {
  if (Math.ceil(size / wanted) <= MAX_PARTS) return wanted
  const MiB = 1024 * 1024
  return Math.ceil(size / MAX_PARTS / MiB) * MiB
}

/**
 * Abort the multipart upload on the server, on a connection of its own (the upload's are cut).
 * Best effort: a failure is logged, the upload's own error is what the caller gets.
 */
async function abortOnServer(
  deps: EngineDeps,
  transfer: TransferSettings,
  key: string,
  uploadId: string,
): Promise<void> {
  const signal = AbortSignal.timeout(Math.max(transfer.timeoutMs, 1) * 3)
  const http = deps.platform.http({ signal, timeoutMs: transfer.timeoutMs, onBodyBytes: () => {} })
  const session = createOssSession({ credentials: deps.credentials, http, signal, logger: deps.logger })
  const call = createOssCaller({
    session,
    retry: { maxRetries: 2, initialDelayMs: 200, maxDelayMs: 1_000 },
    signal,
    logger: deps.logger,
  })
  try {
    await call({ op: 'AbortMultipartUpload' }, (client) => client.abort(key, uploadId))
    deps.logger.info('upload: multipart upload aborted on the server', { key, uploadId })
  } catch (error) {
    if (UploadError.isInstance(error) && error.ossCode === 'NoSuchUpload') return
    deps.logger.warn(
      "upload: the multipart upload could not be aborted on the server; its parts stay until the bucket's lifecycle rule removes them",
      { key, uploadId, error: error instanceof Error ? error.message : String(error) },
    )
  }
}
