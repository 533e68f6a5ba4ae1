import { readFile, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
}

export interface StaticFile {
  body: Uint8Array
  type: string
  /** Vite's hashed assets never change; everything else is revalidated. */
  immutable: boolean
}

/** A file of the built page, or undefined; never anything outside `root`. */
export async function readStatic(root: string, pathname: string): Promise<StaticFile | undefined> {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  if (decoded.includes('\0')) return undefined
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '')
  const base = resolve(root)
  const file = resolve(join(base, relative))
  if (file !== base && !file.startsWith(base + sep)) return undefined
  try {
    const info = await stat(file)
    if (!info.isFile()) return undefined
    return {
      body: new Uint8Array(await readFile(file)),
      type: TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      immutable: relative.startsWith('assets/'),
    }
  } catch {
    return undefined
  }
}
