import { randomUUID } from 'node:crypto'
import { SimError } from '../http/sim-error.ts'
import type { SavedMaterial, SimContext } from '../model/context.ts'
import { BUCKET } from '../model/state.ts'
import { saveMaterials } from '../open/materials.ts'
import { uploadDir } from '../open/sts.ts'
import { type ByteSource, ObjectStoreError } from '../oss/index.ts'
import type { UploadTarget } from './spaces.ts'

/** A refusal of the selector's upload endpoints that has its own HTTP status (413, 502). */
export class UploadRefused extends Error {
  readonly status: 400 | 413 | 502

  constructor(status: 400 | 413 | 502, message: string) {
    super(message)
    this.status = status
  }
}

export interface FileToSave {
  /** The file name as the user had it, extension included (`photo.final.png`). */
  fileName: string
  contentType: string
  body: ByteSource
  /** The announced length, when there was one: fewer or more bytes fail the upload. */
  contentLength?: number | undefined
  link?: string | undefined
}

const MAX_NAME = 255
// No path separators, no control characters (C0, DEL, C1): a name, not a path or a header value.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters refused
const BAD_NAME = /[/\\\u0000-\u001f\u007f-\u009f]/

/** `photo.final.png` -> name `photo.final`, extension `png`; `.env` and `README` have none. */
export function splitFileName(fileName: string): { name: string; extension: string } {
  if (fileName.trim() === '' || fileName === '.' || fileName === '..') {
    throw new SimError('bad_request', 'name must be a file name')
  }
  if (fileName.length > MAX_NAME)
    throw new SimError('bad_request', `name is longer than ${MAX_NAME} characters`)
  if (BAD_NAME.test(fileName)) {
    throw new SimError('bad_request', 'name must not contain slashes, backslashes or control characters')
  }
  const dot = fileName.lastIndexOf('.')
  if (dot <= 0 || dot === fileName.length - 1) return { name: fileName, extension: '' }
  return { name: fileName.slice(0, dot), extension: fileName.slice(dot + 1) }
}

/** An optional `link` (the files' related address): http(s) only, of sane length. */
export function checkLink(link: string | undefined): string | undefined {
  if (link === undefined || link === '') return undefined
  if (link.length > 2048 || !URL.canParse(link) || !/^https?:$/.test(new URL(link).protocol)) {
    throw new SimError('bad_request', 'link must be an http(s) URL of at most 2048 characters')
  }
  return link
}

/** Counts bytes as they pass and stops the upload once there are more than `limit`. */
async function* capped(body: ByteSource, limit: number): AsyncGenerator<Uint8Array> {
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > limit) throw new UploadRefused(413, `The file is larger than the limit of ${limit} bytes`)
    yield chunk
  }
}

/**
 * Streams a file into the object store under the user's upload directory (where sts-tmp
 * credentials would have put it), then registers it through material-save's own path: the write
 * rule, the folder check and the callbacks and asset events are exactly those of the open API.
 * A refused save leaves no object behind.
 */
export async function storeAndSave(
  sim: SimContext,
  target: UploadTarget,
  file: FileToSave,
  options: { maxBytes: number; origin: string },
): Promise<SavedMaterial> {
  const { name, extension } = splitFileName(file.fileName)
  if (file.contentLength !== undefined && file.contentLength > options.maxBytes) {
    throw new UploadRefused(
      413,
      `The file is ${file.contentLength} bytes; the limit is ${options.maxBytes} bytes`,
    )
  }
  // The key never holds the user's file name: only the extension, reduced to safe characters.
  const safeExtension = extension.replace(/[^A-Za-z0-9]/g, '').slice(0, 16)
  const key = `${uploadDir(sim, target.userId)}selector/${randomUUID()}${safeExtension ? `.${safeExtension}` : ''}`
  let stored: { size: number }
  try {
    stored = await sim.store.put({
      bucket: BUCKET,
      key,
      contentType: file.contentType || 'application/octet-stream',
      body: capped(file.body, options.maxBytes),
      contentLength: file.contentLength,
    })
  } catch (error) {
    if (error instanceof ObjectStoreError && error.code === 'IncompleteBody') {
      throw new UploadRefused(400, 'The body did not have the announced length (Content-Length)')
    }
    throw error
  }
  try {
    const [saved] = await saveMaterials(
      sim,
      target.userId,
      {
        // As material-save's lossless JSON parser hands ids over: integers, every digit kept.
        ...(target.teamId === undefined ? {} : { orgId: BigInt(target.teamId) }),
        materials: [
          {
            key,
            folderId: BigInt(target.folderId),
            name,
            extension,
            size: stored.size,
            ...(file.link ? { link: file.link } : {}),
          },
        ],
      },
      options.origin,
    )
    if (!saved) throw new SimError('internal', 'material-save saved nothing')
    return saved
  } catch (error) {
    await sim.store.delete(BUCKET, key).catch(() => false)
    throw error
  }
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'video/mp4': 'mp4',
  'audio/mpeg': 'mp3',
}

/** A file name for a fetched address: the last path segment, or `download` plus an extension from the type. */
export function fileNameOf(url: URL, contentType: string): string {
  let last = ''
  try {
    last = decodeURIComponent(url.pathname.split('/').pop() ?? '')
  } catch {
    // Not valid percent-encoding: fall back to a made-up name.
  }
  const clean = last.replace(new RegExp(BAD_NAME.source, 'g'), '').slice(0, MAX_NAME)
  if (clean && clean !== '.' && clean !== '..') return clean
  const extension = EXTENSIONS[contentType.split(';')[0]?.trim().toLowerCase() ?? '']
  return extension ? `download.${extension}` : 'download'
}

export interface FetchedFile {
  url: URL
  response: Response
}

/**
 * Fetches an address for flow 1 with `isUrl` (the page hands strings to the service, which
 * downloads them). http(s) only; a failure or an error status is a 502 naming the address.
 */
export async function fetchAddress(
  address: unknown,
  options: { fetch: typeof fetch; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<FetchedFile> {
  if (typeof address !== 'string' || !URL.canParse(address)) {
    throw new SimError('bad_request', 'url must be an absolute http(s) URL')
  }
  const url = new URL(address)
  if (!/^https?:$/.test(url.protocol)) throw new SimError('bad_request', 'url must be an http(s) URL')
  if (url.username || url.password) throw new SimError('bad_request', 'url must not carry credentials')
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])]
  let response: Response
  try {
    response = await options.fetch(url, { redirect: 'follow', signal: AbortSignal.any(signals) })
  } catch (error) {
    const why = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed'
    throw new UploadRefused(502, `Fetching ${url.href} ${why}`)
  }
  // A redirect may not leave http(s) (fetch refuses other schemes anyway).
  const final = new URL(response.url || url.href)
  if (!/^https?:$/.test(final.protocol)) {
    await response.body?.cancel()
    throw new UploadRefused(502, `Fetching ${url.href} was redirected to a non-http(s) address`)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new UploadRefused(502, `Fetching ${url.href} answered HTTP ${response.status}`)
  }
  return { url: final, response }
}
