import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CliError } from './errors.ts'
import type { LocalFile } from './files.ts'
import { acquireLock } from './lock.ts'

export interface SavedAsset {
  id: string
  name: string
  accessUrl: string
}

/**
 * Which files of an upload command are saved already, so that running the same command again
 * after Ctrl-C or a crash continues instead of saving them twice. One JSON file per destination
 * (service, space, folder); written after each file, removed once a run ends with every file saved.
 * A run holds the journal's lock from before it reads the journal until it ends, so two runs to
 * one destination never upload at once (the second is refused: `busy`, exit 7).
 */
export interface Journal {
  saved(file: LocalFile): SavedAsset | undefined
  record(file: LocalFile, asset: SavedAsset): void
  remove(): void
  /** Releases the lock (also done when the process exits). */
  close(): void
}

export function openJournal(dir: string, destination: string): Journal {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${createHash('sha256').update(destination).digest('hex').slice(0, 32)}.json`)
  const lock = acquireLock(
    `${path}.lock`,
    (pid) =>
      new CliError(
        'busy',
        `Another upload to this destination is running${pid ? ` (pid ${pid})` : ''}`,
        `Let it finish, or stop it and run this command again to continue it; if none is running, remove ${path}.lock`,
      ),
  )
  let entries: Record<string, SavedAsset> = {}
  try {
    entries = JSON.parse(readFileSync(path, 'utf8')) as Record<string, SavedAsset>
  } catch {
    entries = {}
  }
  const keyOf = (f: LocalFile) => `${f.path}\u0000${f.size}\u0000${f.mtimeMs}`
  return {
    saved: (file) => entries[keyOf(file)],
    record(file, asset) {
      entries[keyOf(file)] = asset
      writeFileSync(`${path}.tmp`, JSON.stringify(entries))
      renameSync(`${path}.tmp`, path)
    },
    remove() {
      rmSync(path, { force: true })
    },
    close: () => lock.release(),
  }
}
