import { chunkStream } from './chunk-stream.ts'
import { selectParts } from './complete.ts'
import { crc64OfParts } from './crc64.ts'
import { digestInto } from './digest.ts'
import { checkBody, etagOf, multipartEtag } from './etag.ts'
import { isUploadId, newUploadId } from './ids.ts'
import { resolveRange } from './range.ts'
import {
  listed,
  type MultipartUpload,
  type ObjectStore,
  ObjectStoreError,
  type StoredObject,
  type StoredPart,
} from './store.ts'

interface Held {
  object: StoredObject
  /** The chunks as they arrived: kept by reference, never concatenated. */
  chunks: Uint8Array[]
}

interface HeldPart extends StoredPart {
  chunks: Uint8Array[]
}

interface HeldUpload {
  upload: MultipartUpload
  parts: Map<number, HeldPart>
}

const id = (bucket: string, key: string) => `${bucket}\u0000${key}`
const copyObject = (o: StoredObject): StoredObject => ({
  ...o,
  lastModified: new Date(o.lastModified),
  ...(o.metadata ? { metadata: { ...o.metadata } } : {}),
  ...(o.attributes ? { attributes: structuredClone(o.attributes) } : {}),
})
const copyPart = ({ chunks: _, ...part }: HeldPart): StoredPart => ({
  ...part,
  lastModified: new Date(part.lastModified),
})

/** Everything in this process's memory: the default for tests. */
export function memoryObjectStore(): ObjectStore {
  const objects = new Map<string, Held>()
  const uploads = new Map<string, HeldUpload>()

  const uploadFor = (bucket: string, key: string, uploadId: string): HeldUpload => {
    const held = isUploadId(uploadId) ? uploads.get(uploadId) : undefined
    if (!held || held.upload.bucket !== bucket || held.upload.key !== key) {
      throw new ObjectStoreError('NoSuchUpload', undefined, { UploadId: uploadId })
    }
    return held
  }

  const collect = async (input: {
    body: AsyncIterable<Uint8Array>
    contentMd5?: string | undefined
    contentLength?: number | undefined
    corruptAt?: number | undefined
  }) => {
    const chunks: Uint8Array[] = []
    const digest = await digestInto(
      input.body,
      (chunk) => {
        chunks.push(chunk)
      },
      { corruptAt: input.corruptAt },
    )
    checkBody(digest, input)
    return { chunks, ...digest }
  }

  return {
    async put(input) {
      const { chunks, size, md5, crc64 } = await collect(input)
      if (input.forbidOverwrite && objects.has(id(input.bucket, input.key)))
        throw new ObjectStoreError('FileAlreadyExists')
      const object: StoredObject = {
        bucket: input.bucket,
        key: input.key,
        size,
        etag: etagOf(md5),
        crc64,
        contentType: input.contentType,
        lastModified: new Date(),
        ...(input.metadata ? { metadata: { ...input.metadata } } : {}),
        ...(input.attributes ? { attributes: structuredClone(input.attributes) } : {}),
      }
      objects.set(id(input.bucket, input.key), { object, chunks })
      return copyObject(object)
    },

    async head(bucket, key) {
      const held = objects.get(id(bucket, key))
      return held && copyObject(held.object)
    },

    async get(bucket, key, range) {
      const held = objects.get(id(bucket, key))
      if (!held) return undefined
      const object = copyObject(held.object)
      if (!range) return { object, body: chunkStream(held.chunks, 0, object.size - 1) }
      const served = resolveRange(range, object.size)
      return { object, body: chunkStream(held.chunks, served.start, served.end), range: served }
    },

    async delete(bucket, key) {
      return objects.delete(id(bucket, key))
    },

    async setAttributes(bucket, key, attributes) {
      const held = objects.get(id(bucket, key))
      if (!held) return undefined
      held.object = { ...held.object, attributes: structuredClone(attributes) }
      return copyObject(held.object)
    },

    async list(filter = {}) {
      return listed(
        [...objects.values()].map((h) => h.object),
        filter,
      ).map(copyObject)
    },

    async initiateMultipartUpload(input) {
      const upload: MultipartUpload = {
        bucket: input.bucket,
        key: input.key,
        uploadId: newUploadId(),
        contentType: input.contentType,
        initiated: new Date(),
        ...(input.metadata ? { metadata: { ...input.metadata } } : {}),
        ...(input.attributes ? { attributes: structuredClone(input.attributes) } : {}),
      }
      uploads.set(upload.uploadId, { upload, parts: new Map() })
      return { ...upload }
    },

    async uploadPart(input) {
      uploadFor(input.bucket, input.key, input.uploadId)
      const { chunks, size, md5, crc64 } = await collect(input)
      // Aborted or completed while the body was arriving: the part has nowhere to go.
      const held = uploadFor(input.bucket, input.key, input.uploadId)
      const part: HeldPart = {
        partNumber: input.partNumber,
        etag: etagOf(md5),
        crc64,
        size,
        lastModified: new Date(),
        chunks,
      }
      held.parts.set(input.partNumber, part)
      return copyPart(part)
    },

    async listParts(bucket, key, uploadId) {
      const held = uploadFor(bucket, key, uploadId)
      const parts = [...held.parts.values()].sort((a, b) => a.partNumber - b.partNumber).map(copyPart)
      return { upload: { ...held.upload }, parts }
    },

    async completeMultipartUpload(input) {
      const held = uploadFor(input.bucket, input.key, input.uploadId)
      const selected = selectParts(input.parts, held.parts)
      if (input.forbidOverwrite && objects.has(id(input.bucket, input.key)))
        throw new ObjectStoreError('FileAlreadyExists')
      const crc64 = crc64OfParts(selected)
      const object: StoredObject = {
        bucket: input.bucket,
        key: input.key,
        size: selected.reduce((sum, p) => sum + p.size, 0),
        etag: multipartEtag(selected.map((p) => p.etag)),
        ...(crc64 !== undefined ? { crc64 } : {}),
        contentType: held.upload.contentType,
        lastModified: new Date(),
        ...(held.upload.metadata ? { metadata: { ...held.upload.metadata } } : {}),
        ...(held.upload.attributes ? { attributes: structuredClone(held.upload.attributes) } : {}),
      }
      objects.set(id(input.bucket, input.key), { object, chunks: selected.flatMap((p) => p.chunks) })
      uploads.delete(input.uploadId)
      return copyObject(object)
    },

    async abortMultipartUpload(bucket, key, uploadId) {
      uploadFor(bucket, key, uploadId)
      uploads.delete(uploadId)
    },

    async listMultipartUploads(filter = {}) {
      return [...uploads.values()]
        .map((h) => ({ ...h.upload }))
        .filter((u) => filter.bucket === undefined || u.bucket === filter.bucket)
        .sort((a, b) => a.initiated.getTime() - b.initiated.getTime())
    },
  }
}
