/** A function that answers a delivery as a receiver would: `receiver.fetch`, a Hono app's `fetch`... */
export type DeliveryHandler = (request: Request) => Response | Promise<Response>

/**
 * One delivery attempt to a function instead of over HTTP. The attempt's signal (timeout, stop)
 * wins over a handler that never answers, as a socket timeout would; a handler that throws is a
 * connection failure, as a crashed receiver would be.
 */
export async function deliverInProcess(
  handler: DeliveryHandler,
  url: string,
  init: RequestInit,
): Promise<Response> {
  const request = new Request(url, init)
  const signal = request.signal
  signal.throwIfAborted()
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([
      Promise.resolve()
        .then(() => handler(request))
        .catch((error: unknown) => {
          throw new TypeError('fetch failed', { cause: error })
        }),
      aborted,
    ])
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}
