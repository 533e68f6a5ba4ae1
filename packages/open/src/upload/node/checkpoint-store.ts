import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CheckpointStore, SourceFingerprint, UploadCheckpoint } from '../checkpoint.ts'

/**
 * One JSON file per source in `directory`, named by a hash of its path, size and mtime: a file
 * that changed gets a fresh upload. Written to a temporary file and renamed, so a crash mid-write
 * leaves the previous checkpoint intact.
 */
export function fileCheckpointStore(directory: string): CheckpointStore {
  const fileOf = (source: SourceFingerprint) =>
    join(
      directory,
      `${createHash('sha256')
        .update(JSON.stringify([source.name, source.size, source.lastModified]))
        .digest('hex')
        .slice(0, 32)}.json`,
    )
  let sequence = 0
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
  }
}
