import { chunkStream } from './chunk-stream.ts'
import { selectParts } from './complete.ts'
import { digestInto } from './digest.ts'
import { checkBody } from './etag.ts'
import { isUploadId } from './ids.ts'
import { resolveRange } from './range.ts'
import {
  completedRecord,
  copyRecord,
  partRecord,
  putRecord,
  uploadRecord,
  withAttributes,
} from './records.ts'
import {
  type BodyInput,
  type CompleteInput,
  listed,
  listedUploads,
  type MultipartUpload,
  type ObjectAttributes,
  type ObjectStore,
  ObjectStoreError,
  type PutInput,
  type RangeRequest,
  type StoredObject,
  type StoredPart,
  type UploadPartInput,
} from './store.ts'

interface Held {
  object: StoredObject
  /** The chunks as they arrived: kept by reference, never concatenated. */
  chunks: Uint8Array[]
}

interface HeldPart {
  part: StoredPart
  chunks: Uint8Array[]
}

interface HeldUpload {
  upload: MultipartUpload
  parts: Map<number, HeldPart>
}

const id = (bucket: string, key: string) => `${bucket}\u0000${key}`

/** Everything in this process's memory: the default for tests. */
export function memoryObjectStore(): ObjectStore {
  return new MemoryObjectStore()
}

/** The records of records.ts and the chunks as they arrived, in two maps. */
class MemoryObjectStore implements ObjectStore {
  readonly #objects = new Map<string, Held>()
  readonly #uploads = new Map<string, HeldUpload>()

  #uploadFor(bucket: string, key: string, uploadId: string): HeldUpload {
    const held = isUploadId(uploadId) ? this.#uploads.get(uploadId) : undefined
    if (!held || held.upload.bucket !== bucket || held.upload.key !== key) {
      throw new ObjectStoreError('NoSuchUpload', undefined, { UploadId: uploadId })
    }
    return held
  }

  /** Reads the body into chunks, digesting it, and checks it against what the request announced. */
  async #collect(input: BodyInput) {
    const chunks: Uint8Array[] = []
    const digest = await digestInto(input.body, (chunk) => void chunks.push(chunk), {
      corruptAt: input.corruptAt,
    })
    checkBody(digest, input)
    return { chunks, digest }
  }

  async put(input: PutInput): Promise<StoredObject> {
    const { chunks, digest } = await this.#collect(input)
    if (input.forbidOverwrite && this.#objects.has(id(input.bucket, input.key)))
      throw new ObjectStoreError('FileAlreadyExists')
    const object = putRecord(input, digest)
    this.#objects.set(id(input.bucket, input.key), { object, chunks })
    return copyRecord(object)
  }

  async head(bucket: string, key: string): Promise<StoredObject | undefined> {
    const held = this.#objects.get(id(bucket, key))
    return held && copyRecord(held.object)
  }

  async get(bucket: string, key: string, range?: RangeRequest) {
    const held = this.#objects.get(id(bucket, key))
    if (!held) return undefined
    const object = copyRecord(held.object)
    if (!range) return { object, body: chunkStream(held.chunks, 0, object.size - 1) }
    const served = resolveRange(range, object.size)
    return { object, body: chunkStream(held.chunks, served.start, served.end), range: served }
  }

  async delete(bucket: string, key: string): Promise<boolean> {
    return this.#objects.delete(id(bucket, key))
  }

  async setAttributes(bucket: string, key: string, attributes: ObjectAttributes) {
    const held = this.#objects.get(id(bucket, key))
    if (!held) return undefined
    held.object = withAttributes(held.object, attributes)
    return copyRecord(held.object)
  }

  async list(filter: { bucket?: string; prefix?: string } = {}): Promise<StoredObject[]> {
    return listed(
      [...this.#objects.values()].map((h) => h.object),
      filter,
    ).map(copyRecord)
  }

  async initiateMultipartUpload(input: Parameters<ObjectStore['initiateMultipartUpload']>[0]) {
    const upload = uploadRecord(input)
    this.#uploads.set(upload.uploadId, { upload, parts: new Map() })
    return copyRecord(upload)
  }

  async uploadPart(input: UploadPartInput): Promise<StoredPart> {
    this.#uploadFor(input.bucket, input.key, input.uploadId)
    const { chunks, digest } = await this.#collect(input)
    // Aborted or completed while the body was arriving: the part has nowhere to go.
    const held = this.#uploadFor(input.bucket, input.key, input.uploadId)
    const part = partRecord(input.partNumber, digest)
    held.parts.set(input.partNumber, { part, chunks })
    return copyRecord(part)
  }

  async listParts(bucket: string, key: string, uploadId: string) {
    const held = this.#uploadFor(bucket, key, uploadId)
    const parts = [...held.parts.values()]
      .map((p) => copyRecord(p.part))
      .sort((a, b) => a.partNumber - b.partNumber)
    return { upload: copyRecord(held.upload), parts }
  }

  async completeMultipartUpload(input: CompleteInput): Promise<StoredObject> {
    const held = this.#uploadFor(input.bucket, input.key, input.uploadId)
    const byNumber = new Map([...held.parts].map(([n, p]) => [n, { ...p.part, chunks: p.chunks }]))
    const selected = selectParts(input.parts, byNumber)
    if (input.forbidOverwrite && this.#objects.has(id(input.bucket, input.key)))
      throw new ObjectStoreError('FileAlreadyExists')
    const object = completedRecord(held.upload, selected)
    this.#objects.set(id(input.bucket, input.key), { object, chunks: selected.flatMap((p) => p.chunks) })
    this.#uploads.delete(input.uploadId)
    return copyRecord(object)
  }

  async abortMultipartUpload(bucket: string, key: string, uploadId: string): Promise<void> {
    this.#uploadFor(bucket, key, uploadId)
    this.#uploads.delete(uploadId)
  }

  async listMultipartUploads(filter: { bucket?: string } = {}): Promise<MultipartUpload[]> {
    return listedUploads(
      [...this.#uploads.values()].map((h) => h.upload),
      filter,
    ).map(copyRecord)
  }
}
