import type { SavedAsset, UploadUpdate } from '@service-sdk/demo-web/api'
import type { OpenClient, UploadProgress } from '@service-sdk/open'
import { DemoError, toHttpError } from './errors.ts'

export interface StartUpload {
  /** The page's id for this upload (it also cancels with it). */
  id: string
  /** The page that started it: progress goes to its stream only. */
  clientId: string
  body: ReadableStream<Uint8Array>
  fileName: string
  /** What the page says the size is (Content-Length); the cap is enforced on the bytes read. */
  declaredSize: number | undefined
  folderId: string | undefined
  orgId: string | undefined
  /** The request's signal: the page went away or aborted its request. */
  signal: AbortSignal
}

const PROGRESS_INTERVAL_MS = 100

type Listener = (clientId: string, update: UploadUpdate) => void

/**
 * Flow 2's uploads in flight: the request body streams into `open.upload` with a size cap,
 * progress goes to the page's stream, and shutdown waits for them (or aborts them).
 */
export interface UploadManager {
  run(upload: StartUpload): Promise<SavedAsset>
  /** Cancel an upload of this page; false when there is none. */
  cancel(id: string, clientId: string): boolean
  /** Pause (parts sending finish, no new one starts) or resume an upload of this page; false when there is none. */
  pause(id: string, clientId: string, paused: boolean): boolean
  onUpdate(listener: Listener): () => void
  readonly inFlight: number
  /** Refuse new uploads, wait up to `graceMs` for the running ones, then abort the rest. */
  drain(graceMs: number): Promise<void>
}

interface Running {
  clientId: string
  abort: (reason: unknown) => void
  pause?: (paused: boolean) => void
  done: Promise<unknown>
}

export function createUploadManager(open: OpenClient, options: { maxBytes: number }): UploadManager {
  return new Uploads(open, options.maxBytes)
}

class Uploads implements UploadManager {
  readonly #open: OpenClient
  readonly #maxBytes: number
  readonly #running = new Map<string, Running>()
  readonly #listeners = new Set<Listener>()
  #draining = false

  constructor(open: OpenClient, maxBytes: number) {
    this.#open = open
    this.#maxBytes = maxBytes
  }

  get inFlight(): number {
    return this.#running.size
  }

  async run(start: StartUpload): Promise<SavedAsset> {
    this.#admit(start)
    const controller = new AbortController()
    const onRequestAbort = () =>
      controller.abort(new DOMException('The page cancelled the upload', 'AbortError'))
    if (start.signal.aborted) onRequestAbort()
    else start.signal.addEventListener('abort', onRequestAbort, { once: true })
    // A refusal of the body itself (too large, empty) is what the page is told, whatever the
    // engine made of the stream failing under it.
    let refused: DemoError | undefined
    const capped = cap(start.body, this.#maxBytes, (error) => {
      refused = error
    })
    const progress = new ProgressToPage(start, (update) => this.#emit(start.clientId, update))
    let settle!: () => void
    const done = new Promise<void>((resolve) => {
      settle = resolve
    })
    const entry: Running = { clientId: start.clientId, abort: (reason) => controller.abort(reason), done }
    this.#running.set(start.id, entry)
    try {
      const asset = await this.#upload(capped, start, controller.signal, progress, entry)
      progress.finish({ state: 'done', phase: 'done', loaded: asset.size, total: asset.size, asset })
      return asset
    } catch (error) {
      const failure = refused ?? (controller.signal.aborted ? controller.signal.reason : error)
      const { error: body } = toHttpError(failure).body
      progress.finish({ state: body.code === 'cancelled' ? 'cancelled' : 'failed', error: body })
      throw failure
    } finally {
      start.signal.removeEventListener('abort', onRequestAbort)
      this.#running.delete(start.id)
      settle()
    }
  }

  cancel(id: string, clientId: string): boolean {
    const upload = this.#running.get(id)
    if (!upload || upload.clientId !== clientId) return false
    upload.abort(new DOMException('Cancelled from the page', 'AbortError'))
    return true
  }

  pause(id: string, clientId: string, paused: boolean): boolean {
    const upload = this.#running.get(id)
    if (!upload?.pause || upload.clientId !== clientId) return false
    upload.pause(paused)
    return true
  }

  onUpdate(listener: Listener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  async drain(graceMs: number): Promise<void> {
    this.#draining = true
    if (this.#running.size === 0) return
    const all = Promise.all([...this.#running.values()].map((r) => r.done))
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs)
    })
    const outcome = await Promise.race([all, timedOut])
    clearTimeout(timer)
    if (outcome === 'timeout') {
      for (const r of this.#running.values())
        r.abort(new DemoError(503, 'shutting_down', 'The server shut down.'))
      await all
    }
  }

  /** Refused before anything is read: shutting down, the same id twice, a declared size over the cap. */
  #admit(start: StartUpload): void {
    if (this.#draining)
      throw new DemoError(503, 'shutting_down', 'The server is shutting down; try again in a moment.')
    if (this.#running.has(start.id))
      throw new DemoError(409, 'duplicate_upload', 'An upload with this id is running.')
    if (start.declaredSize !== undefined && start.declaredSize > this.#maxBytes)
      throw tooLarge(this.#maxBytes)
  }

  async #upload(
    body: AsyncIterable<Uint8Array>,
    start: StartUpload,
    signal: AbortSignal,
    progress: ProgressToPage,
    entry: Running,
  ): Promise<SavedAsset> {
    const upload = this.#open.upload(body, {
      ...splitName(start.fileName),
      ...(start.folderId === undefined ? {} : { folderId: start.folderId }),
      ...(start.orgId === undefined ? {} : { orgId: start.orgId }),
      signal,
      onProgress: progress.report,
    })
    entry.pause = (paused) => (paused ? void upload.pause() : upload.resume())
    const saved = await upload.done()
    const { id, key, name, extension, size, accessUrl } = saved
    return { id, key, name, extension, size, accessUrl }
  }

  #emit(clientId: string, update: UploadUpdate): void {
    for (const listener of this.#listeners) listener(clientId, update)
  }
}

/** One upload's updates for its page: every phase change, else a few a second (the engine reports every chunk). */
class ProgressToPage {
  #last: UploadUpdate
  #lastEmit = 0
  readonly #start: StartUpload
  readonly #emit: (update: UploadUpdate) => void

  constructor(start: StartUpload, emit: (update: UploadUpdate) => void) {
    this.#start = start
    this.#emit = emit
    this.#last = {
      id: start.id,
      state: 'running',
      phase: 'receiving',
      loaded: 0,
      total: start.declaredSize ?? null,
    }
    emit(this.#last)
  }

  report = (p: UploadProgress): void => {
    const now = Date.now()
    const rate = p.rate ?? null
    const etaMs = p.etaMs ?? null
    const last = this.#last
    if (p.phase === last.phase && p.paused === last.paused && now - this.#lastEmit < PROGRESS_INTERVAL_MS) {
      this.#last = { ...last, loaded: p.loaded, total: p.total ?? last.total, rate, etaMs }
      return
    }
    this.#lastEmit = now
    const total = p.total ?? this.#start.declaredSize ?? null
    this.#last = {
      id: this.#start.id,
      state: 'running',
      phase: p.phase,
      loaded: p.loaded,
      total,
      rate,
      etaMs,
      paused: p.paused,
    }
    this.#emit(this.#last)
  }

  /** The last update, with how it ended. */
  finish(end: Partial<UploadUpdate>): void {
    this.#emit({ ...this.#last, ...end })
  }
}

export function emptyFile(): DemoError {
  return new DemoError(400, 'empty_file', 'The file is empty: there is nothing to upload.')
}

function tooLarge(maxBytes: number): DemoError {
  return new DemoError(
    413,
    'too_large',
    `The file is larger than this server accepts (${formatBytes(maxBytes)}).`,
  )
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  let v = n
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return i === 0 ? `${n} bytes` : `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`
}

/** `report.final.pdf` -> name `report.final`, extension `pdf`; no extension -> `bin`. */
export function splitName(fileName: string): { name: string; extension: string } {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const dot = base.lastIndexOf('.')
  if (dot <= 0 || dot === base.length - 1) return { name: base || 'upload', extension: 'bin' }
  return { name: base.slice(0, dot), extension: base.slice(dot + 1).toLowerCase() }
}

/** The body, read as the upload consumes it, failing once more than `maxBytes` went through. */
async function* cap(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onRefused: (error: DemoError) => void,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let seen = 0
  const refuse = (error: DemoError) => {
    onRefused(error)
    return error
  }
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) {
        if (seen === 0) throw refuse(emptyFile())
        return
      }
      seen += value.byteLength
      if (seen > maxBytes) throw refuse(tooLarge(maxBytes))
      yield value
    }
  } finally {
    // Stop reading the request (on a failure, a cancel, or the cap).
    reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}
