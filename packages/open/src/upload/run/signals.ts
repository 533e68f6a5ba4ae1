/** The reason an upload stops with when `abort()` is called without one. */
export function abortError(): DOMException {
  return new DOMException('The upload was aborted', 'AbortError')
}

/** Ties a caller's signal to our controller; the returned function unties it (call it when done). */
export function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal) return () => {}
  if (signal.aborted) {
    controller.abort(signal.reason)
    return () => {}
  }
  const onAbort = () => controller.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  return () => signal.removeEventListener('abort', onAbort)
}
