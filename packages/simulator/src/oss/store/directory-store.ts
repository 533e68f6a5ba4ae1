import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { selectParts } from './complete.ts'
import type { Digested } from './digest.ts'
import { checkBody } from './etag.ts'
import { openSegments, segmentStream, writeBodyToFile, writeJsonAtomic } from './file-io.ts'
import { isUploadId } from './ids.ts'
import { keyedLock } from './keyed-lock.ts'
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

interface DataFile {
  file: string
  size: number
}

/** An object's record as JSON, with its data files in order. */
type ObjectFile = Omit<StoredObject, 'lastModified'> & { lastModified: string; data: DataFile[] }
type UploadFile = Omit<MultipartUpload, 'initiated'> & { initiated: string }
type PartFile = Omit<StoredPart, 'lastModified'> & { lastModified: string; file: string }

/** Files left in tmp/ by a process that died mid-upload are swept after this long. */
const STALE_TMP_MS = 3_600_000

/** Objects and in-progress multipart uploads on disk, so a restarted simulator keeps them. */
export function directoryObjectStore(dir: string): ObjectStore {
  return new DirectoryObjectStore(dir)
}

/** The records of records.ts as JSON files, the bytes as data files (the layout above). */
class DirectoryObjectStore implements ObjectStore {
  readonly #paths: { objects: string; data: string; uploads: string; tmp: string }
  readonly #withObjectLock = keyedLock()
  readonly #withUploadLock = keyedLock()

  constructor(dir: string) {
    this.#paths = {
      objects: join(dir, 'objects'),
      data: join(dir, 'data'),
      uploads: join(dir, 'uploads'),
      tmp: join(dir, 'tmp'),
    }
    for (const path of Object.values(this.#paths)) mkdirSync(path, { recursive: true })
    sweepStale(this.#paths.tmp)
  }

  #scratch(): string {
    return join(this.#paths.tmp, randomBytes(12).toString('hex'))
  }
  #objectPath(bucket: string, key: string): string {
    const name = createHash('sha256').update(bucket).update('\u0000').update(key).digest('hex')
    return join(this.#paths.objects, `${name}.json`)
  }
  #dataPath(file: string): string {
    return join(this.#paths.data, file)
  }
  #uploadDir(uploadId: string): string {
    return join(this.#paths.uploads, uploadId)
  }

  /** Streams the body to tmp/, checks it, and moves it into data/ under a fresh name. */
  async #receive(input: BodyInput): Promise<Digested & { file: string }> {
    const path = this.#scratch()
    const digest = await writeBodyToFile(path, input.body, { corruptAt: input.corruptAt })
    try {
      checkBody(digest, input)
      const file = randomBytes(16).toString('hex')
      await rename(path, this.#dataPath(file))
      return { ...digest, file }
    } catch (error) {
      await rm(path, { force: true })
      throw error
    }
  }

  #dropData(files: readonly string[]) {
    return Promise.allSettled(files.map((file) => unlink(this.#dataPath(file))))
  }

  /** Swaps in an object's metadata, then drops the data of the object it replaced. */
  #commitObject(object: StoredObject, data: DataFile[], forbidOverwrite: boolean | undefined) {
    return this.#withObjectLock(`${object.bucket}\u0000${object.key}`, async () => {
      const path = this.#objectPath(object.bucket, object.key)
      const previous = await readJson<ObjectFile>(path)
      if (previous && forbidOverwrite) throw new ObjectStoreError('FileAlreadyExists')
      await writeJsonAtomic(path, this.#scratch(), objectFile(object, data))
      if (previous) await this.#dropData(previous.data.map((d) => d.file))
      return copyRecord(object)
    })
  }

  async #readUpload(bucket: string, key: string, uploadId: string): Promise<MultipartUpload> {
    const file = isUploadId(uploadId)
      ? await readJson<UploadFile>(join(this.#uploadDir(uploadId), 'upload.json'))
      : undefined
    if (!file || file.bucket !== bucket || file.key !== key) {
      throw new ObjectStoreError('NoSuchUpload', undefined, { UploadId: uploadId })
    }
    return uploadOf(file)
  }

  async #readParts(uploadId: string): Promise<Array<StoredPart & { file: string }>> {
    const dir = this.#uploadDir(uploadId)
    const names = (await readdir(dir)).filter((name) => /^\d+\.json$/.test(name))
    const parts = await Promise.all(names.map((name) => readJson<PartFile>(join(dir, name))))
    return parts
      .filter((p): p is PartFile => p !== undefined)
      .map((p) => ({ ...p, lastModified: new Date(p.lastModified) }))
      .sort((a, b) => a.partNumber - b.partNumber)
  }

  async put(input: PutInput): Promise<StoredObject> {
    const digest = await this.#receive(input)
    try {
      return await this.#commitObject(
        putRecord(input, digest),
        [{ file: digest.file, size: digest.size }],
        input.forbidOverwrite,
      )
    } catch (error) {
      await this.#dropData([digest.file])
      throw error
    }
  }

  async head(bucket: string, key: string): Promise<StoredObject | undefined> {
    const file = readJsonNow<ObjectFile>(this.#objectPath(bucket, key))
    return file && recordOf(file)
  }

  async get(bucket: string, key: string, range?: RangeRequest) {
    // Under the lock, so the files named by the metadata are still there when opened.
    const found = await this.#withObjectLock(`${bucket}\u0000${key}`, async () => {
      const file = await readJson<ObjectFile>(this.#objectPath(bucket, key))
      if (!file) return undefined
      const served = range ? resolveRange(range, file.size) : undefined
      const segments = await openSegments(
        file.data.map((d) => ({ path: this.#dataPath(d.file), size: d.size })),
      )
      return { file, served, segments }
    })
    if (!found) return undefined
    const { file, served, segments } = found
    const body = segmentStream(segments, served?.start ?? 0, served?.end ?? file.size - 1)
    return { object: recordOf(file), body, ...(served ? { range: served } : {}) }
  }

  async delete(bucket: string, key: string): Promise<boolean> {
    return this.#withObjectLock(`${bucket}\u0000${key}`, async () => {
      const path = this.#objectPath(bucket, key)
      const file = await readJson<ObjectFile>(path)
      if (!file) return false
      await rm(path, { force: true })
      await this.#dropData(file.data.map((d) => d.file))
      return true
    })
  }

  async setAttributes(bucket: string, key: string, attributes: ObjectAttributes) {
    return this.#withObjectLock(`${bucket}\u0000${key}`, async () => {
      const path = this.#objectPath(bucket, key)
      const file = await readJson<ObjectFile>(path)
      if (!file) return undefined
      const updated = withAttributes(file, attributes)
      await writeJsonAtomic(path, this.#scratch(), updated)
      return recordOf(updated)
    })
  }

  async list(filter: { bucket?: string; prefix?: string } = {}): Promise<StoredObject[]> {
    const names = (await readdir(this.#paths.objects)).filter((name) => name.endsWith('.json'))
    const files = await Promise.all(
      names.map((name) => readJson<ObjectFile>(join(this.#paths.objects, name))),
    )
    return listed(
      files.filter((f): f is ObjectFile => f !== undefined),
      filter,
    ).map(recordOf)
  }

  async initiateMultipartUpload(input: Parameters<ObjectStore['initiateMultipartUpload']>[0]) {
    const upload = uploadRecord(input)
    await mkdir(this.#uploadDir(upload.uploadId))
    const file: UploadFile = { ...upload, initiated: upload.initiated.toISOString() }
    await writeJsonAtomic(join(this.#uploadDir(upload.uploadId), 'upload.json'), this.#scratch(), file)
    return copyRecord(upload)
  }

  async uploadPart(input: UploadPartInput): Promise<StoredPart> {
    // Refuse before reading the body, as OSS answers NoSuchUpload without waiting for it.
    await this.#readUpload(input.bucket, input.key, input.uploadId)
    const digest = await this.#receive(input)
    const part = partRecord(input.partNumber, digest)
    try {
      await this.#withUploadLock(input.uploadId, async () => {
        // Aborted or completed while the body was arriving: the part has nowhere to go.
        await this.#readUpload(input.bucket, input.key, input.uploadId)
        const path = join(this.#uploadDir(input.uploadId), `${input.partNumber}.json`)
        const previous = await readJson<PartFile>(path)
        const file: PartFile = { ...part, lastModified: part.lastModified.toISOString(), file: digest.file }
        await writeJsonAtomic(path, this.#scratch(), file)
        if (previous) await this.#dropData([previous.file])
      })
    } catch (error) {
      await this.#dropData([digest.file])
      throw error
    }
    return copyRecord(part)
  }

  async listParts(bucket: string, key: string, uploadId: string) {
    return this.#withUploadLock(uploadId, async () => {
      const upload = await this.#readUpload(bucket, key, uploadId)
      const parts = (await this.#readParts(uploadId)).map(({ file: _, ...part }) => part)
      return { upload, parts }
    })
  }

  async completeMultipartUpload(input: CompleteInput): Promise<StoredObject> {
    return this.#withUploadLock(input.uploadId, async () => {
      const upload = await this.#readUpload(input.bucket, input.key, input.uploadId)
      const parts = await this.#readParts(input.uploadId)
      const selected = selectParts(input.parts, new Map(parts.map((p) => [p.partNumber, p])))
      const data = selected.map((p) => ({ file: p.file, size: p.size }))
      const object = await this.#commitObject(completedRecord(upload, selected), data, input.forbidOverwrite)
      await rm(this.#uploadDir(input.uploadId), { recursive: true, force: true })
      const kept = new Set(selected.map((p) => p.file))
      await this.#dropData(parts.filter((p) => !kept.has(p.file)).map((p) => p.file))
      return object
    })
  }

  async abortMultipartUpload(bucket: string, key: string, uploadId: string): Promise<void> {
    await this.#withUploadLock(uploadId, async () => {
      await this.#readUpload(bucket, key, uploadId)
      const parts = await this.#readParts(uploadId)
      await rm(this.#uploadDir(uploadId), { recursive: true, force: true })
      await this.#dropData(parts.map((p) => p.file))
    })
  }

  async listMultipartUploads(filter: { bucket?: string } = {}): Promise<MultipartUpload[]> {
    const ids = (await readdir(this.#paths.uploads)).filter(isUploadId)
    const files = await Promise.all(
      ids.map((id) => readJson<UploadFile>(join(this.#uploadDir(id), 'upload.json'))),
    )
    const uploads = files.filter((u): u is UploadFile => u !== undefined).map(uploadOf)
    return listedUploads(uploads, filter)
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

function objectFile(object: StoredObject, data: DataFile[]): ObjectFile {
  return { ...object, lastModified: object.lastModified.toISOString(), data }
}

function recordOf({ data: _, ...file }: ObjectFile): StoredObject {
  return structuredClone({ ...file, lastModified: new Date(file.lastModified) })
}

function uploadOf(file: UploadFile): MultipartUpload {
  return { ...file, initiated: new Date(file.initiated) }
}
