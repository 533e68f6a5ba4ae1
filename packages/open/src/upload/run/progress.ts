import type { Logger } from '@service-sdk/core'
import { createRateMeter, etaMs, type RateMeter } from './rate.ts'

export type UploadPhase = 'credentials' | 'uploading' | 'saving' | 'done'

/** One upload's progress. */
export interface UploadProgress {
  phase: UploadPhase
  /**
   * Object bytes sent so far, counted as request bodies are consumed (not per finished part).
   * It steps back when a part is sent again after a failure; on resume it starts at the bytes
   * of the parts already stored.
   */
  loaded: number
  /** The object's size; a stream's is known once it has ended. */
  total: number | undefined
  /** The object key, once known. */
  key: string | undefined
  /**
   * Smoothed sending rate in bytes per second (a moving average over half-second samples);
   * `undefined` until the first sample, and while paused.
   */
  rate: number | undefined
  /** Estimated milliseconds left at `rate`; `undefined` while the rate or the total is unknown. */
  etaMs: number | undefined
  /** `upload.pause()` is in effect: no new part starts. */
  paused: boolean
}

export interface ProgressTracker {
  readonly current: UploadProgress
  phase(phase: UploadPhase): void
  total(total: number): void
  key(key: string): void
  /** Bytes of part `part` (0: a single put) consumed by the connection. */
  sent(part: number, bytes: number): void
  /** A new attempt at `part`: the bytes counted for the previous one are not stored. */
  restart(part: number): void
  /** `part` is stored. */
  stored(part: number, size: number): void
  /** A new attempt at the whole object (a retry): byte counts start again; nothing is emitted. */
  begin(): void
  /** Parts already in the storage (a resume): counted, but not as bytes sent now. */
  already(size: number): void
  /** Paused or resumed: the rate starts again from nothing after a pause. */
  paused(paused: boolean): void
}

/**
 * Counts bytes per part in flight, so a failed attempt can be taken back exactly. `emit` is a
 * handle's `createListeners().emit` (directly, or folded into a batch's view): it never throws.
 */
export function createProgressTracker(
  emit: (progress: UploadProgress) => void,
  now: () => number = Date.now,
): ProgressTracker {
  return new Tracker(emit, createRateMeter(now))
}

class Tracker implements ProgressTracker {
  readonly #emit: (progress: UploadProgress) => void
  readonly #meter: RateMeter
  /** Bytes counted per part being sent (0: a single PUT). */
  readonly #inFlight = new Map<number, number>()
  #stored = 0
  #current: UploadProgress = {
    phase: 'credentials',
    loaded: 0,
    total: undefined,
    key: undefined,
    rate: undefined,
    etaMs: undefined,
    paused: false,
  }

  constructor(emit: (progress: UploadProgress) => void, meter: RateMeter) {
    this.#emit = emit
    this.#meter = meter
  }

  get current(): UploadProgress {
    return this.#current
  }

  phase(phase: UploadPhase): void {
    const c = this.#current
    if (phase === c.phase) return
    if (phase === 'uploading') this.#meter.reset(c.loaded)
    this.#update(phase, c.loaded, c.total, c.key, c.paused)
  }
  total(total: number): void {
    const c = this.#current
    this.#update(c.phase, c.loaded, total, c.key, c.paused)
  }
  key(key: string): void {
    const c = this.#current
    this.#update(c.phase, c.loaded, c.total, key, c.paused)
  }
  sent(part: number, bytes: number): void {
    const c = this.#current
    this.#inFlight.set(part, (this.#inFlight.get(part) ?? 0) + bytes)
    this.#update(c.phase, c.loaded + bytes, c.total, c.key, c.paused)
  }
  restart(part: number): void {
    if (!this.#inFlight.delete(part)) return
    const c = this.#current
    this.#update(c.phase, this.#loaded(), c.total, c.key, c.paused)
  }
  stored(part: number, size: number): void {
    this.#inFlight.delete(part)
    this.#stored += size
    const c = this.#current
    this.#update(c.phase, this.#loaded(), c.total, c.key, c.paused)
  }
  begin(): void {
    this.#inFlight.clear()
    this.#stored = 0
    this.#current = { ...this.#current, loaded: 0 }
  }
  already(size: number): void {
    this.#stored += size
    this.#meter.reset(this.#loaded())
    const c = this.#current
    this.#update(c.phase, this.#loaded(), c.total, c.key, c.paused)
  }
  paused(paused: boolean): void {
    const c = this.#current
    if (paused === c.paused) return
    if (!paused) this.#meter.reset(c.loaded)
    this.#update(c.phase, c.loaded, c.total, c.key, paused)
  }

  /**
   * One new object per update (listeners may keep the old one), rate and ETA in it. Made field by
   * field: spreading the current one and the change cost a small file's several updates more.
   */
  #update(
    phase: UploadPhase,
    loaded: number,
    total: number | undefined,
    key: string | undefined,
    paused: boolean,
  ): void {
    const rate = paused || phase !== 'uploading' ? undefined : this.#meter.sample(loaded)
    const etaMsLeft = phase === 'done' ? 0 : etaMs(loaded, total, rate)
    const next: UploadProgress = { phase, loaded, total, key, rate, etaMs: etaMsLeft, paused }
    this.#current = next
    this.#emit(next)
  }

  #loaded(): number {
    let sum = this.#stored
    for (const bytes of this.#inFlight.values()) sum += bytes
    return sum
  }
}

/** A handle's progress listeners. */
export interface Listeners<T> {
  /** Calls each listener on its own: one that throws (logged) does not silence the rest. */
  emit(progress: T): void
  /** Adds a listener; returns a function that removes it. */
  add(listener: (progress: T) => void): () => void
}

export function createListeners<T>(first: ((progress: T) => void) | undefined, logger: Logger): Listeners<T> {
  const listeners = new Set<(progress: T) => void>()
  if (first) listeners.add(first)
  return {
    emit(progress: T) {
      for (const listener of listeners) {
        try {
          listener(progress)
        } catch (error) {
          logger.warn('upload: a progress listener threw', { error: String(error) })
        }
      }
    },
    add(listener: (progress: T) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
