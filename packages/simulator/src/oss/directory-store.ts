import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { selectParts } from './complete.ts'
import { crc64OfParts } from './crc64.ts'
import { checkBody, etagOf, multipartEtag } from './etag.ts'
import { openSegments, segmentStream, writeBodyToFile, writeJsonAtomic } from './file-io.ts'
import { isUploadId, newUploadId } from './ids.ts'
import { keyedLock } from './keyed-lock.ts'
import { resolveRange } from './range.ts'
import {
  type ByteSource,
  listed,
  type MultipartUpload,
  type ObjectAttributes,
  type ObjectStore,
  ObjectStoreError,
  type StoredObject,
  type StoredPart,
} from './store.ts'

/*
 * Layout under `dir`:
 *   objects/<sha256(bucket, key)>.json   the object: metadata and its data files, in order
 *   data/<random>                        immutable data files: a whole put, or one part
 *   uploads/<uploadId>/upload.json       an upload in progress
 *   uploads/<uploadId>/<n>.json          its part n (ETag, size, data file)
 *   tmp/                                 bodies still arriving, JSON about to be renamed into place
 * A metadata rename is the commit point of every change. A completed multipart object keeps its
 * part files as its data (no copy of a 1 GiB object at Complete); data files are never rewritten,
 * so a GET that opened them keeps reading the old bytes while the object is replaced or deleted.
 */

interface ObjectFile {
  bucket: string
  key: string
  size: number
  etag: string
  crc64?: string
  contentType: string
  lastModified: string
  metadata?: Record<string, string>
  attributes?: ObjectAttributes
  data: { file: string; size: number }[]
}

interface UploadFile {
  bucket: string
  key: string
  uploadId: string
  contentType: string
  initiated: string
  metadata?: Record<string, string>
  attributes?: ObjectAttributes
}

interface PartFile {
  partNumber: number
  etag: string
  crc64?: string
  size: number
  lastModified: string
  file: string
}

/** Files left in tmp/ by a process that died mid-upload are swept after this long. */
const STALE_TMP_MS = 3_600_000

/** Objects and in-progress multipart uploads on disk, so a restarted simulator keeps them. */
export function directoryObjectStore(dir: string): ObjectStore {
  const paths = {
    objects: join(dir, 'objects'),
    data: join(dir, 'data'),
    uploads: join(dir, 'uploads'),
    tmp: join(dir, 'tmp'),
  }
  for (const path of Object.values(paths)) mkdirSync(path, { recursive: true })
  sweepStale(paths.tmp)

  const withObjectLock = keyedLock()
  const withUploadLock = keyedLock()
  const scratch = () => join(paths.tmp, randomBytes(12).toString('hex'))
  const objectPath = (bucket: string, key: string) =>
    join(
      paths.objects,
      `${createHash('sha256').update(bucket).update('\u0000').update(key).digest('hex')}.json`,
    )
  const dataPath = (file: string) => join(paths.data, file)
  const uploadDir = (uploadId: string) => join(paths.uploads, uploadId)

  /** Streams the body to tmp/, checks it, and moves it into data/ under a fresh name. */
  const receive = async (input: {
    body: ByteSource
    contentMd5?: string | undefined
    contentLength?: number | undefined
    corruptAt?: number | undefined
  }) => {
    const path = scratch()
    const digest = await writeBodyToFile(path, input.body, { corruptAt: input.corruptAt })
    try {
      checkBody(digest, input)
      const file = randomBytes(16).toString('hex')
      await rename(path, dataPath(file))
      return { ...digest, file }
    } catch (error) {
      await rm(path, { force: true })
      throw error
    }
  }
  const dropData = (files: readonly string[]) =>
    Promise.allSettled(files.map((file) => unlink(dataPath(file))))

  /** Swaps in an object's metadata, then drops the data of the object it replaced. */
  const commitObject = (meta: ObjectFile, forbidOverwrite: boolean | undefined) =>
    withObjectLock(`${meta.bucket}\u0000${meta.key}`, async () => {
      const path = objectPath(meta.bucket, meta.key)
      const previous = await readJson<ObjectFile>(path)
      if (previous && forbidOverwrite) throw new ObjectStoreError('FileAlreadyExists')
      await writeJsonAtomic(path, scratch(), meta)
      if (previous) await dropData(previous.data.map((d) => d.file))
      return toObject(meta)
    })

  const readUpload = async (bucket: string, key: string, uploadId: string): Promise<UploadFile> => {
    const upload = isUploadId(uploadId)
      ? await readJson<UploadFile>(join(uploadDir(uploadId), 'upload.json'))
      : undefined
    if (!upload || upload.bucket !== bucket || upload.key !== key) {
      throw new ObjectStoreError('NoSuchUpload', undefined, { UploadId: uploadId })
    }
    return upload
  }

  const readParts = async (uploadId: string): Promise<PartFile[]> => {
    const names = (await readdir(uploadDir(uploadId))).filter((name) => /^\d+\.json$/.test(name))
    const parts = await Promise.all(names.map((name) => readJson<PartFile>(join(uploadDir(uploadId), name))))
    return parts.filter((p): p is PartFile => p !== undefined).sort((a, b) => a.partNumber - b.partNumber)
  }

  return {
    async put(input) {
      const { file, size, md5, crc64 } = await receive(input)
      const meta: ObjectFile = {
        bucket: input.bucket,
        key: input.key,
        size,
        etag: etagOf(md5),
        crc64,
        contentType: input.contentType,
        lastModified: new Date().toISOString(),
        ...(input.metadata ? { metadata: input.metadata } : {}),
        ...(input.attributes ? { attributes: input.attributes } : {}),
        data: [{ file, size }],
      }
      try {
        return await commitObject(meta, input.forbidOverwrite)
      } catch (error) {
        await dropData([file])
        throw error
      }
    },

    async head(bucket, key) {
      const meta = readJsonNow<ObjectFile>(objectPath(bucket, key))
      return meta && toObject(meta)
    },

    async get(bucket, key, range) {
      // Under the lock, so the files named by the metadata are still there when opened.
      const found = await withObjectLock(`${bucket}\u0000${key}`, async () => {
        const meta = await readJson<ObjectFile>(objectPath(bucket, key))
        if (!meta) return undefined
        const served = range ? resolveRange(range, meta.size) : undefined
        const segments = await openSegments(meta.data.map((d) => ({ path: dataPath(d.file), size: d.size })))
        return { meta, served, segments }
      })
      if (!found) return undefined
      const { meta, served, segments } = found
      const body = segmentStream(segments, served?.start ?? 0, served?.end ?? meta.size - 1)
      return { object: toObject(meta), body, ...(served ? { range: served } : {}) }
    },

    async delete(bucket, key) {
      return withObjectLock(`${bucket}\u0000${key}`, async () => {
        const path = objectPath(bucket, key)
        const meta = await readJson<ObjectFile>(path)
        if (!meta) return false
        await rm(path, { force: true })
        await dropData(meta.data.map((d) => d.file))
        return true
      })
    },

    async setAttributes(bucket, key, attributes) {
      return withObjectLock(`${bucket}\u0000${key}`, async () => {
        const path = objectPath(bucket, key)
        const meta = await readJson<ObjectFile>(path)
        if (!meta) return undefined
        const updated = { ...meta, attributes }
        await writeJsonAtomic(path, scratch(), updated)
        return toObject(updated)
      })
    },

    async list(filter = {}) {
      const names = (await readdir(paths.objects)).filter((name) => name.endsWith('.json'))
      const metas = await Promise.all(names.map((name) => readJson<ObjectFile>(join(paths.objects, name))))
      return listed(
        metas.filter((m): m is ObjectFile => m !== undefined),
        filter,
      ).map(toObject)
    },

    async initiateMultipartUpload(input) {
      const upload: UploadFile = {
        bucket: input.bucket,
        key: input.key,
        uploadId: newUploadId(),
        contentType: input.contentType,
        initiated: new Date().toISOString(),
        ...(input.metadata ? { metadata: input.metadata } : {}),
        ...(input.attributes ? { attributes: input.attributes } : {}),
      }
      await mkdir(uploadDir(upload.uploadId))
      await writeJsonAtomic(join(uploadDir(upload.uploadId), 'upload.json'), scratch(), upload)
      return toUpload(upload)
    },

    async uploadPart(input) {
      // Refuse before reading the body, as OSS answers NoSuchUpload without waiting for it.
      await readUpload(input.bucket, input.key, input.uploadId)
      const { file, size, md5, crc64 } = await receive(input)
      const part: PartFile = {
        partNumber: input.partNumber,
        etag: etagOf(md5),
        crc64,
        size,
        lastModified: new Date().toISOString(),
        file,
      }
      try {
        await withUploadLock(input.uploadId, async () => {
          // Aborted or completed while the body was arriving: the part has nowhere to go.
          await readUpload(input.bucket, input.key, input.uploadId)
          const path = join(uploadDir(input.uploadId), `${input.partNumber}.json`)
          const previous = await readJson<PartFile>(path)
          await writeJsonAtomic(path, scratch(), part)
          if (previous) await dropData([previous.file])
        })
      } catch (error) {
        await dropData([file])
        throw error
      }
      return toPart(part)
    },

    async listParts(bucket, key, uploadId) {
      return withUploadLock(uploadId, async () => {
        const upload = await readUpload(bucket, key, uploadId)
        return { upload: toUpload(upload), parts: (await readParts(uploadId)).map(toPart) }
      })
    },

    async completeMultipartUpload(input) {
      return withUploadLock(input.uploadId, async () => {
        const upload = await readUpload(input.bucket, input.key, input.uploadId)
        const parts = await readParts(input.uploadId)
        const selected = selectParts(input.parts, new Map(parts.map((p) => [p.partNumber, p])))
        const crc64 = crc64OfParts(selected)
        const object = await commitObject(
          {
            bucket: input.bucket,
            key: input.key,
            size: selected.reduce((sum, p) => sum + p.size, 0),
            etag: multipartEtag(selected.map((p) => p.etag)),
            ...(crc64 !== undefined ? { crc64 } : {}),
            contentType: upload.contentType,
            lastModified: new Date().toISOString(),
            ...(upload.metadata ? { metadata: upload.metadata } : {}),
            ...(upload.attributes ? { attributes: upload.attributes } : {}),
            data: selected.map((p) => ({ file: p.file, size: p.size })),
          },
          input.forbidOverwrite,
        )
        await rm(uploadDir(input.uploadId), { recursive: true, force: true })
        const kept = new Set(selected.map((p) => p.file))
        await dropData(parts.filter((p) => !kept.has(p.file)).map((p) => p.file))
        return object
      })
    },

    async abortMultipartUpload(bucket, key, uploadId) {
      await withUploadLock(uploadId, async () => {
        await readUpload(bucket, key, uploadId)
        const parts = await readParts(uploadId)
        await rm(uploadDir(uploadId), { recursive: true, force: true })
        await dropData(parts.map((p) => p.file))
      })
    },

    async listMultipartUploads(filter = {}) {
      const ids = (await readdir(paths.uploads)).filter(isUploadId)
      const uploads = await Promise.all(
        ids.map((id) => readJson<UploadFile>(join(uploadDir(id), 'upload.json'))),
      )
      return uploads
        .filter((u): u is UploadFile => u !== undefined)
        .filter((u) => filter.bucket === undefined || u.bucket === filter.bucket)
        .map(toUpload)
        .sort((a, b) => a.initiated.getTime() - b.initiated.getTime())
    },
  }
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * `readJson`, synchronously, for HeadObject and material-save (which looks up every asset's
 * object): an object's metadata is a few hundred bytes, and fs/promises' `readFile` (open, stat,
 * read and close, each a thread-pool round trip) measured ~120 µs of CPU per file against ~15 µs.
 * The write path keeps the asynchronous `readJson`: made synchronous there too, the simulator's CPU
 * per PutObject did not go down in bench/upload runs (it measured 4-25% higher, within this
 * machine's noise but never lower).
 */
function readJsonNow<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function sweepStale(tmp: string): void {
  const cutoff = Date.now() - STALE_TMP_MS
  for (const name of readdirSync(tmp)) {
    const path = join(tmp, name)
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { force: true, recursive: true })
    } catch {
      // Another process swept it first.
    }
  }
}

function toObject(meta: ObjectFile): StoredObject {
  return {
    bucket: meta.bucket,
    key: meta.key,
    size: meta.size,
    etag: meta.etag,
    ...(meta.crc64 !== undefined ? { crc64: meta.crc64 } : {}),
    contentType: meta.contentType,
    lastModified: new Date(meta.lastModified),
    ...(meta.metadata ? { metadata: { ...meta.metadata } } : {}),
    ...(meta.attributes ? { attributes: structuredClone(meta.attributes) } : {}),
  }
}

function toUpload(upload: UploadFile): MultipartUpload {
  return {
    bucket: upload.bucket,
    key: upload.key,
    uploadId: upload.uploadId,
    contentType: upload.contentType,
    initiated: new Date(upload.initiated),
    ...(upload.metadata ? { metadata: { ...upload.metadata } } : {}),
    ...(upload.attributes ? { attributes: structuredClone(upload.attributes) } : {}),
  }
}

function toPart(part: PartFile): StoredPart {
  return {
    partNumber: part.partNumber,
    etag: part.etag,
    ...(part.crc64 !== undefined ? { crc64: part.crc64 } : {}),
    size: part.size,
    lastModified: new Date(part.lastModified),
  }
}
