/**
 * The page of the browser test (upload-browser.test.ts), bundled the way an application's bundler
 * would: `@service-sdk/open` through its `browser` export condition (dist/browser.js), ali-oss
 * through its own browser build. The open API is reached through the page's own origin (a
 * backend that adds the token: the token never reaches the browser); the object storage is
 * another origin and answers CORS.
 */
import { createOpenClient, type Upload, type UploadProgress } from '@service-sdk/open'

export interface PageUpload {
  name: string
  size: number
  partSize?: number
  parallel?: number
  /** Abort once this many bytes are sent. */
  abortAt?: number
  /** Pause once this many bytes are sent, for `pauseMs`, then resume. */
  pauseAt?: number
  pauseMs?: number
}

export interface PageResult {
  asset?:
    | { id: string; key: string; name: string; accessUrl: string; size: number; extension: string }
    | undefined
  error?: { name: string; message: string }
  sha256: string
  progress: UploadProgress[]
  key: string | undefined
  uploadId: string | undefined
  /** Bytes counted when pause() resolved, and `pauseMs` later (equal: nothing moved while paused). */
  paused?: { at: number; after: number }
}

declare global {
  interface Window {
    ready: boolean
    upload(options: PageUpload): Promise<PageResult>
    /** The last upload's `retry()`, with the same result shape. */
    retry(): Promise<PageResult>
  }
}

/** Deterministic bytes (xorshift), so the test can hash the same bytes on its side. */
function bytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size)
  let x = seed >>> 0 || 1
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

let last: { upload: Upload; result: Omit<PageResult, 'key' | 'uploadId'> } | undefined

async function outcome(upload: Upload, done: Promise<unknown>, result: Omit<PageResult, 'key' | 'uploadId'>) {
  try {
    const asset = (await done) as PageResult['asset']
    return { ...result, asset, key: upload.key, uploadId: upload.uploadId }
  } catch (error) {
    const { name: errorName, message } = error as Error
    return { ...result, error: { name: errorName, message }, key: upload.key, uploadId: upload.uploadId }
  }
}

window.retry = () => {
  if (!last) throw new Error('no upload to retry')
  return outcome(last.upload, last.upload.retry(), last.result)
}

window.upload = async ({ name, size, partSize, parallel, abortAt, pauseAt, pauseMs = 300 }) => {
  const open = createOpenClient({
    openUrl: location.origin,
    token: { type: 'Session', value: 'page-session' },
    uploads: { retry: { initialDelayMs: 10 } },
  })
  const data = bytes(size, size)
  const file = new File([data], name, { type: 'application/octet-stream', lastModified: 1_700_000_000_000 })
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data))
  const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
  const progress: UploadProgress[] = []
  const controller = new AbortController()
  const result: Omit<PageResult, 'key' | 'uploadId'> = { sha256, progress }
  let pausing = false
  const upload: Upload = open.upload(file, {
    ...(partSize === undefined ? {} : { partSize }),
    ...(parallel === undefined ? {} : { parallel }),
    signal: controller.signal,
    onProgress: (p) => {
      progress.push(p)
      if (abortAt !== undefined && p.loaded >= abortAt) controller.abort()
      if (pauseAt !== undefined && p.loaded >= pauseAt && !pausing) {
        pausing = true
        void upload.pause().then(() => {
          const at = upload.progress.loaded
          setTimeout(() => {
            result.paused = { at, after: upload.progress.loaded }
            upload.resume()
          }, pauseMs)
        })
      }
    },
  })
  last = { upload, result }
  return outcome(upload, upload.done(), result)
}
window.ready = true
