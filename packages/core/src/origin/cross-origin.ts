import { ServiceConnectionError } from '../errors/errors.ts'

/**
 * From a browser page, the page's origin and `url`'s when they differ; undefined elsewhere. Trace
 * headers go only to the page's own origin (a `traceparent` that another origin's CORS settings do
 * not allow would fail the call; OpenTelemetry's fetch instrumentation draws the same line).
 */
export function crossOrigin(url: string): { page: string; target: string } | undefined {
  const page = globalThis.location?.origin
  if (!page || typeof document === 'undefined') return undefined
  const target = new URL(url, page).origin
  return target === page ? undefined : { page, target }
}

/**
 * A browser reports a cross-origin request refused by CORS as a bare TypeError, like any network
 * failure: from a page, to another origin, CORS is the likely cause, and the error says so.
 */
export function likelyCors(error: unknown, url: string, spec: { method: string; path: string }) {
  const origins = error instanceof TypeError ? crossOrigin(url) : undefined
  if (!origins) return undefined
  const { page, target } = origins
  return new ServiceConnectionError(
    `Could not complete ${spec.method} ${spec.path}: the browser could not reach ${target} from ${page}. The likely cause is CORS: ${target} does not allow requests from this page's origin. Call the service from your server (for uploads, through the upload proxy of @service-sdk/open/proxy and createOpenClient({ proxyUrl })); if ${target} is your own proxy, allow ${page} in its CORS settings. The request may or may not have reached it.`,
    { reachedServer: 'unknown', cause: error },
  )
}
