import type { Logger } from '@service-sdk/core'

/** A warning logged at most once a minute, saying how many times it happened meanwhile. */
export function throttledWarning(logger: Logger, message: (count: number) => string): () => void {
  let count = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  return () => {
    count++
    if (timer) return
    logger.warn(message(count))
    count = 0
    timer = setTimeout(() => {
      timer = undefined
      if (count > 0) logger.warn(message(count))
      count = 0
    }, 60_000)
    timer.unref?.()
  }
}
