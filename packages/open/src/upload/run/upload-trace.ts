import { type Instrumentation, startSpan } from '@service-sdk/core/internal'
import type { ProgressTracker } from './progress.ts'

/** What one upload attempt's span is told, counted from the progress the engine reports. */
interface Counts {
  parts: Set<number>
  partsResent: number
  resumedBytes: number
}

export interface UploadTrace {
  /** The tracker to hand to the engine: the same one, observed when tracing is on. */
  readonly progress: ProgressTracker
  /** Runs one attempt of the upload inside its span (the sts-tmp and save calls nest under it). */
  run<T>(attempt: () => Promise<T>): Promise<T>
}

/**
 * A span per upload attempt, `service.upload`: bytes (object size and bytes sent), parts stored
 * and parts sent again, bytes resumed from a checkpoint; credential refreshes arrive as events
 * from the credentials cache. No key, file name or credential is recorded.
 */
export function traceUpload(
  instrumentation: Instrumentation | undefined,
  progress: ProgressTracker,
): UploadTrace {
  if (!instrumentation) return { progress, run: (attempt) => attempt() }
  let counts: Counts = { parts: new Set(), partsResent: 0, resumedBytes: 0 }
  let attempts = 0
  const observed: ProgressTracker = {
    get current() {
      return progress.current
    },
    phase: (phase) => progress.phase(phase),
    total: (total) => progress.total(total),
    key: (key) => progress.key(key),
    sent: (part, bytes) => progress.sent(part, bytes),
    restart(part) {
      counts.partsResent++
      progress.restart(part)
    },
    stored(part, size) {
      counts.parts.add(part)
      progress.stored(part, size)
    },
    begin: () => progress.begin(),
    already(size) {
      counts.resumedBytes += size
      progress.already(size)
    },
    paused: (paused) => progress.paused(paused),
  }
  return {
    progress: observed,
    async run(attempt) {
      counts = { parts: new Set(), partsResent: 0, resumedBytes: 0 }
      const span = startSpan(instrumentation, 'service.upload', 'internal', { 'upload.attempt': ++attempts })
      try {
        const result = await span.run(attempt)
        span.setAttributes(attributes(progress, counts))
        span.end()
        return result
      } catch (error) {
        span.setAttributes(attributes(progress, counts))
        span.end(error)
        throw error
      }
    },
  }
}

function attributes(progress: ProgressTracker, counts: Counts) {
  const { total, loaded, phase } = progress.current
  return {
    'upload.bytes': total,
    'upload.bytes_sent': loaded,
    'upload.parts': counts.parts.size,
    'upload.parts_resent': counts.partsResent,
    'upload.resumed_bytes': counts.resumedBytes,
    'upload.phase': phase,
  }
}
