export interface RecordedRequest {
  method: string
  url: string
  /** Path and query, e.g. `/api/team/members`. */
  path: string
  headers: Record<string, string>
  /** The raw request body, if any. */
  body: string | undefined
}

/** Answers a request: a Response, or an Error to reject with (a network failure). */
export type FakeResponder = (
  request: RecordedRequest,
  index: number,
) => Response | Error | Promise<Response | Error>

export interface FakeFetch {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>
  /** Every request received, in order. */
  readonly requests: RecordedRequest[]
}

/**
 * A `fetch` for unit tests that records each request and answers with `respond`. It honours the
 * request's AbortSignal, so a responder that never settles models a hung server.
 */
export function createFakeFetch(respond: FakeResponder): FakeFetch {
  const requests: RecordedRequest[] = []
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const body = request.body ? await request.text() : undefined
    const recorded: RecordedRequest = {
      method: request.method,
      url: request.url,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      body,
    }
    requests.push(recorded)
    const signal = request.signal
    signal.throwIfAborted()
    const answer = await new Promise<Response | Error>((resolve, reject) => {
      const onAbort = () => reject(signal.reason)
      signal.addEventListener('abort', onAbort, { once: true })
      Promise.resolve(respond(recorded, requests.length - 1)).then((value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      }, reject)
    })
    if (answer instanceof Error) throw answer
    return answer
  }
  return Object.assign(fake, { requests })
}
