import { abortable } from '@service-sdk/core/internal'

/**
 * `upload.pause()` / `resume()`: object requests pass the gate before they start (each part, each
 * retry of a part, a single PUT, the completion), so nothing new starts while it is closed;
 * requests already on the wire finish. `pause()` resolves once none is left in flight.
 */
export interface Gate {
  readonly paused: boolean
  /** Resolves when open (at once if it is); rejects with the signal's reason on abort. */
  pass(signal: AbortSignal): Promise<void>
  /** Run `request` counted as in flight (what `pause()` waits for). */
  track<T>(request: () => Promise<T>): Promise<T>
  pause(): Promise<void>
  resume(): void
}

export function createGate(onChange: (paused: boolean) => void = () => {}): Gate {
  let paused = false
  let opened: { promise: Promise<void>; resolve(): void } | undefined
  let inFlight = 0
  let idle: Array<() => void> = []

  const settle = () => {
    if (inFlight > 0) return
    const waiting = idle
    idle = []
    for (const resolve of waiting) resolve()
  }
  return {
    get paused() {
      return paused
    },
    pass(signal) {
      if (!opened) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve()
      return abortable(opened.promise, signal)
    },
    async track(request) {
      inFlight++
      try {
        return await request()
      } finally {
        inFlight--
        settle()
      }
    },
    pause() {
      if (!paused) {
        paused = true
        let resolve = () => {}
        const promise = new Promise<void>((r) => {
          resolve = r
        })
        opened = { promise, resolve }
        onChange(true)
      }
      return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve))
    },
    resume() {
      if (!paused) return
      paused = false
      opened?.resolve()
      opened = undefined
      onChange(false)
    },
  }
}
