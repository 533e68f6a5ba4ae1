import { ServiceValidationError } from '@service-sdk/core'
import { type CheckpointWriter, createCheckpointWriter, loadCheckpoint } from '../checkpoints/checkpoint.ts'
import { endpointUrl } from '../oss/connection.ts'
import type { OssBody } from '../oss/types.ts'
import { utf8Length } from '../oss/utf8-length.ts'
import type { RandomAccessSource, SequentialSource } from '../platform/platform.ts'
import { type SentObject, verifyObject } from './integrity.ts'
import { directoryPrefix, MAX_KEY_BYTES, uniqueKey } from './key.ts'
import { type ResumeParts, resumeParts, sendMultipart } from './multipart.ts'
import type { EngineDeps, ObjectJob, ResumePoint, UploadedObject } from './object-job.ts'
import { type OssCaller, ossCaller } from './oss-call.ts'
import { type PartFeed, partSizeFor, randomAccessFeed, sequentialFeed } from './part-feed.ts'
import { materialOf, type PreparedObject } from './prepare-object.ts'
import { abortOnServer } from './server-abort.ts'
import { readSource, sourceError } from './source-error.ts'

/**
 * Sends a prepared object: one PUT when it fits in a part, otherwise a multipart upload with
 * parallel parts; resumes from `state.point` (a retry) or a checkpoint when there is one. On
 * failure the stored parts and the checkpoint are kept for a retry (`keepPartsOnFailure`, files
 * and bytes only); on abort, or when they are not kept, the multipart upload is aborted on the
 * server and the checkpoint removed. Then the reason is thrown.
 */
export function sendObject(
  deps: EngineDeps,
  job: ObjectJob,
  prepared: PreparedObject,
): Promise<UploadedObject> {
  return new ObjectUpload(deps, job, prepared).run()
}

/**
 * One attempt at one object, top to bottom: `run` → `#store` (where, which key, resume or not)
 * → `#send` (a PUT, or multipart.ts) → the integrity check → the material. The attempt's state
 * is its fields; what outlives it (key, upload id, resume point) is written to `job.state`.
 */
class ObjectUpload {
  readonly #deps: EngineDeps
  readonly #job: ObjectJob
  readonly #prepared: PreparedObject
  readonly #oss: OssCaller
  readonly #writer: CheckpointWriter | undefined
  /** The storage the credential points at: a resume point is valid only there. */
  #where = { endpoint: '', bucket: '' }
  #key = ''

  constructor(deps: EngineDeps, job: ObjectJob, prepared: PreparedObject) {
    this.#deps = deps
    this.#job = job
    this.#prepared = prepared
    const { signal } = job.stop
    const { transfer, progress } = job
    const context = {
      signal,
      timeoutMs: transfer.timeoutMs,
      onBodyBytes: (part: number, bytes: number) => progress.sent(part, bytes),
    }
    this.#oss = ossCaller(deps, context, transfer.retry, job.gate)
    const fingerprint = transfer.checkpoint ? prepared.source.fingerprint : undefined
    this.#writer =
      transfer.checkpoint && fingerprint
        ? createCheckpointWriter(transfer.checkpoint, fingerprint, deps.logger)
        : undefined
  }

  async run(): Promise<UploadedObject> {
    this.#job.state.discard = undefined
    this.#job.progress.begin()
    try {
      return await this.#store()
    } catch (error) {
      throw await this.#failed(error)
    }
  }

  async #store(): Promise<UploadedObject> {
    const { state, transfer } = this.#job
    const resume = await this.#resumePoint()
    const size = resume?.uploaded ? await this.#storedSize() : undefined
    const stored = size ?? (await this.#upload(resume?.uploaded ? undefined : resume))
    state.completed = true
    const partSize = resume?.partSize ?? transfer.partSize
    // A save an earlier run sent stays remembered until the asset is known to be saved.
    const saveSentAt = resume?.uploaded ? resume.saveSentAt : undefined
    await this.#save({ uploaded: true, saveSentAt }, partSize)
    const writer = this.#writer
    return {
      material: materialOf(this.#job, this.#prepared, this.#key, stored),
      saveSentAt,
      saving: () => this.#save({ uploaded: true, saveSentAt: Date.now() }, partSize) ?? Promise.resolve(),
      saveRefused: () => this.#save({ uploaded: true, saveSentAt: undefined }, partSize) ?? Promise.resolve(),
      finish: () => writer?.remove() ?? Promise.resolve(),
    }
  }

  /** The saved point when it is for this storage; settles the key either way. */
  async #resumePoint(): Promise<ResumePoint | undefined> {
    const { state, transfer, progress } = this.#job
    const { source } = this.#prepared
    const saved =
      state.point ??
      (transfer.checkpoint && this.#writer && source.fingerprint
        ? await loadCheckpoint(transfer.checkpoint, source.fingerprint, this.#deps.logger)
        : undefined)
    const { access } = (await this.#oss.lease()).entry
    const dir = directoryPrefix(access.dir)
    this.#where = { endpoint: endpointUrl(access.endPoint), bucket: access.bucket }
    const resume =
      saved &&
      saved.endpoint === this.#where.endpoint &&
      saved.bucket === this.#where.bucket &&
      saved.key.startsWith(dir)
        ? saved
        : undefined
    if (saved && !resume)
      this.#deps.logger.warn('upload: the checkpoint is for another storage or directory; starting over')
    const key =
      resume?.key ??
      (this.#job.key === undefined ? uniqueKey(dir, this.#prepared.fileName) : dir + this.#job.key)
    if (utf8Length(key) > MAX_KEY_BYTES) {
      throw new ServiceValidationError('upload options', [
        { path: 'key', message: `with the directory "${dir}" the key is longer than ${MAX_KEY_BYTES} bytes` },
      ])
    }
    this.#key = state.key = key
    progress.key(key)
    return resume
  }

  /** Uploaded before a crash or a failed save, and still there: only material-save was left. */
  async #storedSize(): Promise<number | undefined> {
    const { source } = this.#prepared
    if (source.kind !== 'random') return undefined
    const size = await this.#oss.call({ op: 'HeadObject' }, (c) => c.size(this.#key))
    if (size !== source.size) return undefined
    this.#job.progress.total(size)
    this.#job.progress.already(size)
    return size
  }

  /** Sends and verifies the object; resolves with its size. */
  async #upload(resume: ResumePoint | undefined): Promise<number> {
    this.#job.progress.phase('uploading')
    const { source } = this.#prepared
    const sent =
      source.kind === 'random' ? await this.#sendRandom(source, resume) : await this.#sendSequential(source)
    try {
      await verifyObject(sent, { key: this.#key, oss: this.#oss, logger: this.#deps.logger })
    } catch (error) {
      // The object is gone: a retry starts over.
      this.#job.state.point = undefined
      this.#job.state.uploadId = undefined
      await this.#writer?.remove()
      throw error
    }
    return sent.size
  }

  #sendRandom(source: RandomAccessSource, resume: ResumePoint | undefined): Promise<SentObject> {
    this.#job.progress.total(source.size)
    const partSize = resume?.partSize ?? partSizeFor(source.size, this.#job.transfer.partSize)
    if (!resume?.uploadId && source.size <= partSize)
      return this.#put(source.size, () => source.body(0, source.size))
    const known = resume?.uploadId ? resumeParts(source, resume.uploadId, partSize, resume.parts) : undefined
    return this.#multipart(partSize, (stored) => randomAccessFeed(source, partSize, stored), known)
  }

  async #sendSequential(source: SequentialSource): Promise<SentObject> {
    const { transfer, progress, stop } = this.#job
    const first = await readSource(source.read(transfer.partSize))
    const firstSize = first.reduce((sum, c) => sum + c.byteLength, 0)
    if (await readSource(source.ended())) {
      progress.total(firstSize)
      return this.#put(firstSize, () => source.body(first, firstSize))
    }
    const feed = () => sequentialFeed(source, transfer.partSize, first, stop.signal)
    const sent = await this.#multipart(transfer.partSize, feed, undefined)
    progress.total(sent.size)
    return sent
  }

  async #put(size: number, body: () => OssBody): Promise<SentObject> {
    const { progress } = this.#job
    let made: OssBody | undefined
    const reported = await this.#oss.call({ op: 'PutObject' }, async (client) => {
      progress.restart(0)
      made = body()
      try {
        return await client.put(this.#key, made, this.#prepared.source.contentType)
      } catch (error) {
        throw made.failure === undefined ? error : sourceError(made.failure)
      }
    })
    progress.stored(0, size)
    return { size, crc: await made?.checksum(), reported }
  }

  async #multipart(
    partSize: number,
    feed: (stored: ReadonlySet<number>) => PartFeed,
    resume: ResumeParts | undefined,
  ): Promise<SentObject> {
    const { state, transfer, progress, stop } = this.#job
    if (resume) state.uploadId = resume.uploadId
    const onState = ({ uploadId, parts }: Pick<ResumePoint, 'parts'> & { uploadId: string }) => {
      state.uploadId = uploadId
      return this.#save({ uploadId, parts }, partSize)
    }
    const context = {
      key: this.#key,
      type: this.#prepared.source.contentType,
      oss: this.#oss,
      progress,
      parallel: transfer.parallel,
      stop,
      logger: this.#deps.logger,
      onState,
    }
    const result = await sendMultipart(context, feed, resume)
    return { size: result.size, crc: result.crc, reported: result.reportedCrc }
  }

  /** Records where the upload stands: in memory for `retry()`, and in the checkpoint. */
  #save(
    change: Omit<Partial<ResumePoint>, 'saveSentAt'> & { saveSentAt?: number | undefined },
    partSize: number,
  ) {
    const { state } = this.#job
    const { saveSentAt, ...rest } = change
    state.point = {
      ...this.#where,
      key: this.#key,
      partSize,
      parts: [],
      ...(state.uploadId === undefined ? {} : { uploadId: state.uploadId }),
      ...rest,
      ...(saveSentAt === undefined ? {} : { saveSentAt }),
    }
    const fingerprint = this.#prepared.source.fingerprint
    return this.#writer && fingerprint
      ? this.#writer.save({ version: 1, source: fingerprint, ...state.point, updatedAt: Date.now() })
      : undefined
  }

  /** Stops the attempt, keeps or discards what it stored, and returns the reason to throw. */
  async #failed(error: unknown): Promise<unknown> {
    const { stop, state, transfer, cancelled } = this.#job
    const { source } = this.#prepared
    const reason = stop.signal.aborted ? stop.signal.reason : error
    if (!stop.signal.aborted) stop.abort(reason)
    if (source.kind === 'sequential') source.cancel()
    const open = state.uploadId !== undefined && !state.completed && state.key !== undefined
    const discard = async () => {
      state.discard = undefined
      state.point = undefined
      if (open) await abortOnServer(this.#deps, transfer, state.key as string, state.uploadId as string)
      if (!state.completed) await this.#writer?.remove()
    }
    if (open && transfer.keepPartsOnFailure && !cancelled.aborted && source.kind === 'random') {
      state.discard = discard
      this.#deps.logger.info('upload: failed; its stored parts and checkpoint are kept for a retry', {
        key: state.key,
        uploadId: state.uploadId,
      })
    } else await discard()
    return reason
  }
}
