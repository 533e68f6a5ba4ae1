/**
 * Reports an error nobody handles (a throwing callback of the app, a failure without `onError`)
 * the way the browser reports an uncaught one, without breaking the caller's flow.
 */
export function reportUncaught(error: unknown): void {
  if (typeof reportError === 'function') reportError(error)
  else
    queueMicrotask(() => {
      throw error
    })
}
