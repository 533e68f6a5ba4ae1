import { isConnectionReset } from './control/connection-reset.ts'
import type { InProcessSimulator } from './host/in-process.ts'
import { SimError } from './http/sim-error.ts'

/**
 * The part of a Playwright `Route` used here. Declared by shape, so a `BrowserContext` or `Page`
 * of `playwright`, `playwright-core` or `@playwright/test` fits without this package depending
 * on one of them.
 */
export interface PlaywrightRoute {
  request(): {
    method(): string
    url(): string
    allHeaders(): Promise<Record<string, string>>
    postDataBuffer(): Buffer | null
    resourceType(): string
  }
  fulfill(response: { status: number; headers: Record<string, string>; body: Buffer }): Promise<void>
  abort(errorCode?: string): Promise<void>
}

/** A Playwright `BrowserContext` or `Page`: whatever has `route` and `unroute`. */
export interface PlaywrightRoutable {
  route(url: (url: URL) => boolean, handler: (route: PlaywrightRoute) => Promise<void>): Promise<unknown>
  unroute(url: (url: URL) => boolean, handler?: (route: PlaywrightRoute) => Promise<void>): Promise<unknown>
}

/** Answers a request as a server would: an app's `fetch`, an upload proxy, a static-file handler. */
export type RequestAnswer = (request: Request) => Response | Promise<Response>

/** Removes the routes it was returned by. */
export type Unroute = () => Promise<void>

/**
 * Every request of `target` (a context: pages, iframes, workers' fetches) to the in-process
 * simulator's origins is answered from it, in the test process: no port, no server. Playwright
 * answers CORS preflights itself while requests are routed; a cross-origin answer that does not
 * allow the page's origin (quirk `ossCors`) fails in the page as a CORS refusal does, though the
 * request itself was handled.
 */
export function routeToSimulator(target: PlaywrightRoutable, sim: InProcessSimulator): Promise<Unroute> {
  return routeRequests(
    target,
    (url) => sim.handles(url),
    (request) => sim.answer(request) ?? Promise.resolve(new Response(null, { status: 404 })),
  )
}

/**
 * Every request of `target` to `origin` (such as `https://shop.test`) is answered by `answer`,
 * in the test process: the page's own files, the application's backend, an upload proxy.
 */
export function routeOrigin(
  target: PlaywrightRoutable,
  origin: string,
  answer: RequestAnswer,
): Promise<Unroute> {
  const wanted = URL.parse(origin)?.origin
  if (!wanted || wanted === 'null' || wanted !== origin.replace(/\/$/, ''))
    throw new SimError(
      'bad_request',
      `routeOrigin: ${origin} is not an origin (scheme, host and optional port)`,
    )
  return routeRequests(target, (url) => url.origin === wanted, answer)
}

async function routeRequests(
  target: PlaywrightRoutable,
  matches: (url: URL) => boolean,
  answer: RequestAnswer,
): Promise<Unroute> {
  const handler = (route: PlaywrightRoute) => fulfil(route, answer)
  await target.route(matches, handler)
  return async () => {
    await target.unroute(matches, handler)
  }
}

async function fulfil(route: PlaywrightRoute, answer: RequestAnswer): Promise<void> {
  const request = route.request()
  const method = request.method()
  const headers = await request.allHeaders()
  const data = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer()
  const body = data ? new Uint8Array(data) : null
  let response: Response
  try {
    response = await answer(new Request(request.url(), { method, headers, body }))
  } catch (error) {
    // A reset connection (fault `reset`) is a network failure in the page too.
    if (isConnectionReset(error)) return route.abort('connectionreset')
    // Anything else is a bug of the answer: the page sees a failed request, the test process the
    // error (an unhandled rejection, which test runners report).
    await route.abort('failed')
    throw error
  }
  const cors = ['fetch', 'xhr'].includes(request.resourceType())
  if (cors && !corsAllows(headers.origin, request.url(), response)) return route.abort('failed')
  await route.fulfill({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  })
}

/**
 * Whether a page may read this answer to its `fetch` or XMLHttpRequest. Playwright would add
 * `Access-Control-Allow-Origin` to a fulfilled answer without one; a browser refuses such an
 * answer to a cross-origin request, so the request fails here as it would there.
 */
function corsAllows(origin: string | undefined, url: string, response: Response): boolean {
  if (!origin || origin === new URL(url).origin) return true
  const allowed = response.headers.get('access-control-allow-origin')
  return allowed === '*' || allowed === origin
}
