import type { Logger } from '@service-sdk/core'
import type { UploadManyProgress } from '../types.ts'
import { createListeners, type Listeners, type UploadPhase, type UploadProgress } from './progress.ts'

/** One progress view for a batch: the sum of every file's bytes, and the files' counts. */
export class BatchProgress {
  readonly listeners: Listeners<UploadManyProgress>
  #current: UploadManyProgress
  /** Each file's last reported bytes, so that a file's new figure replaces its old one. */
  readonly #loadedOf: number[]
  readonly #totalOf: number[]

  constructor(files: number, first: ((progress: UploadManyProgress) => void) | undefined, logger: Logger) {
    this.listeners = createListeners(first, logger)
    this.#current = {
      phase: 'credentials',
      loaded: 0,
      total: 0,
      files: { total: files, uploaded: 0, saved: 0, failed: 0 },
    }
    this.#loadedOf = new Array<number>(files).fill(0)
    this.#totalOf = new Array<number>(files).fill(0)
  }

  get current(): UploadManyProgress {
    return this.#current
  }

  /** One more file uploaded, saved or failed. */
  count(which: 'uploaded' | 'saved' | 'failed'): void {
    const c = this.#current
    const { total, uploaded, saved, failed } = c.files
    const files = { total, uploaded, saved, failed }
    files[which]++
    this.#set(c.phase, c.loaded, c.total, files)
  }

  /** A new view (listeners may keep the old one), made field by field rather than by spreads. */
  #set(phase: UploadPhase, loaded: number, total: number, files: UploadManyProgress['files']): void {
    this.#current = { phase, loaded, total, files }
    this.listeners.emit(this.#current)
  }

  /** What file `index`'s own tracker emits to: its figures folded into the batch's. */
  file(index: number): (progress: UploadProgress) => void {
    return (p) => {
      const current = this.#current
      const loaded = current.loaded + p.loaded - (this.#loadedOf[index] ?? 0)
      const total = current.total + (p.total ?? 0) - (this.#totalOf[index] ?? 0)
      this.#loadedOf[index] = p.loaded
      this.#totalOf[index] = p.total ?? 0
      const starts = p.phase === 'uploading' && current.phase === 'credentials'
      // A file's key or phase alone does not change the batch's view: nothing to tell.
      if (!starts && loaded === current.loaded && total === current.total) return
      this.#set(starts ? 'uploading' : current.phase, loaded, total, current.files)
    }
  }

  phase(phase: UploadPhase): void {
    const c = this.#current
    this.#set(phase, c.loaded, c.total, c.files)
  }
}
