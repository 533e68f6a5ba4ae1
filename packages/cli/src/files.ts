import { glob, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { CliError } from './errors.ts'

export interface LocalFile {
  path: string
  size: number
  mtimeMs: number
}

const GLOB = /[*?[\]{}]/

/** Paths, directories (every file below) and globs, each file once, in the order given. */
export async function resolveFiles(patterns: string[]): Promise<LocalFile[]> {
  const seen = new Map<string, LocalFile>()
  for (const pattern of patterns) {
    const matches = await expand(pattern)
    if (matches.length === 0)
      throw new CliError(
        'usage',
        `No file matches ${pattern}`,
        'Give paths, directories or globs such as "assets/**/*.png" (quoted)',
      )
    for (const path of matches) {
      const info = await stat(path)
      if (info.isFile()) seen.set(path, { path, size: info.size, mtimeMs: info.mtimeMs })
    }
  }
  return [...seen.values()]
}

async function expand(pattern: string): Promise<string[]> {
  const info = await stat(pattern).catch(() => undefined)
  if (info?.isFile()) return [resolve(pattern)]
  const where = info?.isDirectory()
    ? `${pattern.replace(/\/+$/, '')}/**/*`
    : GLOB.test(pattern)
      ? pattern
      : undefined
  if (!where) return []
  const found: string[] = []
  for await (const path of glob(where)) found.push(resolve(path))
  return found.sort()
}
