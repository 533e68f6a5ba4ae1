/** How often the rate is sampled, and how much a new sample weighs against the history. */
const SAMPLE_MS = 500
const WEIGHT = 0.3

export interface RateMeter {
  /** The smoothed rate in bytes per second after `loaded` bytes, or `undefined` before the first sample. */
  sample(loaded: number): number | undefined
  /** Forget the history (after a pause: the idle time is not a slow rate). */
  reset(loaded: number): void
}

/**
 * An exponentially weighted moving average of bytes per second, over samples at least 500 ms
 * apart (shorter ones are dominated by how the connection batches writes). A step back (a part
 * sent again after a failure) counts as no progress, not as a negative rate.
 */
export function createRateMeter(now: () => number = Date.now): RateMeter {
  let at = now()
  let from = 0
  let rate: number | undefined
  return {
    sample(loaded) {
      const t = now()
      const elapsed = t - at
      if (elapsed >= SAMPLE_MS) {
        const instant = (Math.max(0, loaded - from) * 1000) / elapsed
        rate = rate === undefined ? instant : WEIGHT * instant + (1 - WEIGHT) * rate
        at = t
        from = loaded
      } else if (loaded < from) from = loaded
      return rate
    },
    reset(loaded) {
      at = now()
      from = loaded
      rate = undefined
    },
  }
}

/** Milliseconds left at `rate`, when both the rate and the total are known. */
export function etaMs(
  loaded: number,
  total: number | undefined,
  rate: number | undefined,
): number | undefined {
  if (total === undefined || rate === undefined) return undefined
  if (loaded >= total) return 0
  return rate > 0 ? Math.round(((total - loaded) / rate) * 1000) : undefined
}
