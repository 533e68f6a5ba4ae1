import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type {
  ListableCheckpointStore,
  SourceFingerprint,
  UploadCheckpoint,
} from '../checkpoints/checkpoint.ts'

const DAY = 24 * 3_600_000
/** Checkpoints not written for this long are stale: not listed, cleaned up by `cleanupUploads`. */
const MAX_AGE_MS = 7 * DAY

/**
 * One JSON file per source in `directory`, named by a hash of its path, size and mtime: a file
 * that changed gets a fresh upload. Written to a temporary file and renamed, so a crash mid-write
 * leaves the previous checkpoint intact.
 */
export function fileCheckpointStore(directory: string): ListableCheckpointStore {
  const fileOf = (source: SourceFingerprint) =>
    join(
      directory,
      `${createHash('sha256')
        .update(JSON.stringify([source.name, source.size, source.lastModified]))
        .digest('hex')
        .slice(0, 32)}.json`,
    )
  let sequence = 0
  /** Every checkpoint file's content (unreadable ones are left out: the upload checks what it loads). */
  const all = async (): Promise<UploadCheckpoint[]> => {
    const names = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[]
      throw error
    })
    const read = await Promise.all(
      names
        .filter((n) => n.endsWith('.json'))
        .map((n) =>
          readFile(join(directory, n), 'utf8').then(
            (text) => JSON.parse(text) as UploadCheckpoint,
            () => undefined,
          ),
        ),
    )
    return read.filter((c): c is UploadCheckpoint => typeof c === 'object' && c !== null && 'source' in c)
  }
  const age = (c: UploadCheckpoint) => Date.now() - (c.updatedAt ?? 0)
  return {
    async load(source) {
      try {
        return JSON.parse(await readFile(fileOf(source), 'utf8')) as UploadCheckpoint
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      }
    },
    async save(checkpoint) {
      await mkdir(directory, { recursive: true })
      const file = fileOf(checkpoint.source)
      const temporary = `${file}.${process.pid}.${sequence++}.tmp`
      await writeFile(temporary, JSON.stringify(checkpoint))
      await rename(temporary, file)
    },
    async remove(source) {
      await rm(fileOf(source), { force: true })
    },
    list: async () =>
      (await all())
        .filter((c) => age(c) < MAX_AGE_MS)
        .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0)),
    stale: async (olderThanMs = MAX_AGE_MS) => (await all()).filter((c) => age(c) >= olderThanMs),
  }
}
