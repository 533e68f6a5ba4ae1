import { constants, type Dirent, type Stats } from 'node:fs'
import { access, lstat, readdir, stat } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import picomatch from 'picomatch'
import { CliError } from './errors.ts'

export interface LocalFile {
  path: string
  size: number
  mtimeMs: number
}

/** An entry that was found but is not a file the command can read: named, and skipped. */
export interface Unreadable {
  path: string
  reason: string
}

export interface FoundFiles {
  files: LocalFile[]
  unreadable: Unreadable[]
}

const GLOB = /[*?[\]{}]/

/**
 * Paths, directories (every file below, hidden ones left out) and globs, each file once, in the
 * order given. An entry that cannot be read as a file (a dangling link, a FIFO, a socket, a device,
 * a folder or file this user may not read) is in `unreadable` with the reason, never dropped
 * silently; a pattern that finds nothing at all is a usage error.
 */
export async function resolveFiles(patterns: string[]): Promise<FoundFiles> {
  const found: Found = { files: new Map(), unreadable: new Map() }
  for (const pattern of patterns) {
    const before = found.files.size + found.unreadable.size
    await expand(pattern, found)
    if (found.files.size + found.unreadable.size === before)
      throw new CliError(
        'usage',
        `No file matches ${pattern}`,
        'Give paths, directories or globs such as "assets/**/*.png" (quoted)',
      )
  }
  return { files: [...found.files.values()], unreadable: [...found.unreadable.values()] }
}

interface Found {
  files: Map<string, LocalFile>
  unreadable: Map<string, Unreadable>
}

async function expand(pattern: string, found: Found): Promise<void> {
  const path = resolve(pattern)
  const info = await stat(path).catch(() => undefined)
  if (info?.isDirectory()) return walk(path, path, () => true, Number.POSITIVE_INFINITY, found)
  if (info) return add(path, found)
  const link = await lstat(path).catch(() => undefined)
  if (link) return add(path, found) // there, but stat failed: a dangling link, a loop, no permission
  if (!GLOB.test(pattern)) return
  const { base, glob } = picomatch.scan(pattern)
  const matches = picomatch(glob)
  const depth = glob.includes('**') ? Number.POSITIVE_INFINITY : glob.split('/').length
  const root = resolve(base || '.')
  return walk(root, root, (rel) => matches(rel), depth, found)
}

/** Every entry below `dir` whose path relative to `root` is accepted; hidden ones are left out. */
async function walk(
  root: string,
  dir: string,
  accept: (relativePath: string) => boolean,
  depth: number,
  found: Found,
): Promise<void> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    found.unreadable.set(dir, { path: dir, reason: `a folder that cannot be read (${codeOf(error)})` })
    return
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (depth > 1) await walk(root, path, accept, depth - 1, found)
      continue
    }
    if (accept(relative(root, path))) await add(path, found)
  }
}

/** A file found, or the reason it cannot be read as one. */
async function add(path: string, found: Found): Promise<void> {
  if (found.files.has(path) || found.unreadable.has(path)) return
  let info: Stats
  try {
    info = await stat(path)
  } catch (error) {
    found.unreadable.set(path, { path, reason: await statFailure(path, error) })
    return
  }
  const reason =
    notAFile(info) ?? (await access(path, constants.R_OK).then(noReason, statFailure.bind(null, path)))
  if (reason) found.unreadable.set(path, { path, reason })
  else found.files.set(path, { path, size: info.size, mtimeMs: info.mtimeMs })
}

function notAFile(info: Stats): string | undefined {
  if (info.isFile()) return undefined
  if (info.isDirectory()) return 'a link to a folder (links to folders are not followed)'
  if (info.isFIFO()) return 'a named pipe (FIFO), not a file'
  if (info.isSocket()) return 'a socket, not a file'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device, not a file'
  return 'not a regular file'
}

async function statFailure(path: string, error: unknown): Promise<string> {
  const code = codeOf(error)
  const link = await lstat(path).catch(() => undefined)
  if (link?.isSymbolicLink()) {
    if (code === 'ENOENT') return 'a symbolic link to something that does not exist'
    if (code === 'ELOOP') return 'a symbolic link that loops'
  }
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`
  return `cannot be read (${code})`
}

const noReason = () => undefined
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? 'error'
