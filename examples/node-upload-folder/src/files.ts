import { readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'

export interface FolderFile {
  /** Absolute path, to read from. */
  path: string
  /** Path inside the folder with `/` separators, for messages. */
  relativePath: string
}

/** Every regular file under `folder`, sub-folders included, hidden files (`.name`) skipped. */
export async function listFiles(folder: string): Promise<FolderFile[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ path, relativePath: relative(folder, path).split(sep).join('/') }))
    .filter((file) => !file.relativePath.split('/').some((part) => part.startsWith('.')))
    .sort((a, b) => a.relativePath.localeCompare(b.relativePath))
}
