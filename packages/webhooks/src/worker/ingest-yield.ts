import type { EventLoopUtilization } from 'node:perf_hooks'
import { performance } from 'node:perf_hooks'

const YIELD_MS = 100

/**
 * Acknowledgements first: while requests are being received and the event loop is saturated,
 * claim at most one batch per YIELD_MS, so a burst is stored and acknowledged at full speed and
 * processed right after it (the backlog is durable). Without incoming requests, processing runs
 * at full speed however busy the loop is.
 */
export interface IngestYield {
  lastClaimAt: number
  window: EventLoopUtilization
  windowAt: number
  saturated: boolean
  timer: ReturnType<typeof setTimeout> | undefined
}

export function ingestYield(): IngestYield {
  return {
    lastClaimAt: 0,
    window: performance.eventLoopUtilization(),
    windowAt: performance.now(),
    saturated: false,
    timer: undefined,
  }
}

/** Whether to skip claiming now, leaving the loop to the requests being received. */
export function shouldYield(y: IngestYield, ingestBusy: (() => boolean) | undefined): boolean {
  if (!ingestBusy?.()) return false
  const now = performance.now()
  if (now - y.windowAt >= YIELD_MS) {
    y.saturated = performance.eventLoopUtilization(y.window).utilization > 0.9
    y.window = performance.eventLoopUtilization()
    y.windowAt = now
  }
  return y.saturated && now - y.lastClaimAt < YIELD_MS
}

export function claimed(y: IngestYield): void {
  y.lastClaimAt = performance.now()
}

/** Look again once the yield is over. */
export function resumeAfterYield(y: IngestYield, resume: () => void): void {
  if (y.timer) return
  y.timer = setTimeout(() => {
    y.timer = undefined
    resume()
  }, YIELD_MS)
  y.timer.unref?.()
}

export function cancelYield(y: IngestYield): void {
  if (y.timer) clearTimeout(y.timer)
  y.timer = undefined
}
