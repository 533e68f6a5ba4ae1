import type { Logger } from '@service-sdk/core'

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
}

/** Counts bytes per part in flight, so a failed attempt can be taken back exactly. */
export function createProgressTracker(
  emit: (progress: UploadProgress) => void,
  logger: Logger,
): ProgressTracker {
  const inFlight = new Map<number, number>()
  let stored = 0
  let current: UploadProgress = { phase: 'credentials', loaded: 0, total: undefined, key: undefined }

  const update = (change: Partial<UploadProgress>) => {
    current = { ...current, ...change }
    try {
      emit(current)
    } catch (error) {
      logger.warn('upload: a progress listener threw', { error: String(error) })
    }
  }
  const loaded = () => {
    let sum = stored
    for (const bytes of inFlight.values()) sum += bytes
    return sum
  }

  return {
    get current() {
      return current
    },
    phase: (phase) => {
      if (phase !== current.phase) update({ phase })
    },
    total: (total) => update({ total }),
    key: (key) => update({ key }),
    sent(part, bytes) {
      inFlight.set(part, (inFlight.get(part) ?? 0) + bytes)
      update({ loaded: current.loaded + bytes })
    },
    restart(part) {
      if (!inFlight.has(part)) return
      inFlight.delete(part)
      update({ loaded: loaded() })
    },
    stored(part, size) {
      inFlight.delete(part)
      stored += size
      update({ loaded: loaded() })
    },
  }
}

/** A handle's progress listeners: each is called on its own, so one that throws (logged) does not silence the rest. */
export function createListeners<T>(first: ((progress: T) => void) | undefined, logger: Logger) {
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
