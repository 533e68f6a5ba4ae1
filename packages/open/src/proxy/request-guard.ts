import { failure } from './responses.ts'

/** Which page origins besides the proxy's own may call it. */
export type OriginAllowed = (origin: string) => boolean

/** The `allowedOrigins` option as a check. */
export function originCheck(allowed: readonly string[] | OriginAllowed | undefined): OriginAllowed {
  if (typeof allowed === 'function') return allowed
  const list = new Set(allowed ?? [])
  return (origin) => list.has(origin)
}

/**
 * The proxy's defence against cross-site request forgery, before `authorize` runs (a cookie
 * session is exactly what a forged request would ride on):
 * - the body must be declared `application/json`: a form or `text/plain` body is what a page on
 *   another site can send without the browser asking the proxy first (a CORS preflight);
 * - a browser's `Origin` must be the proxy's own (its host, as the request, `Host` or
 *   `X-Forwarded-Host` names it) or one of `allowedOrigins`; without `Origin`, a browser's
 *   `Sec-Fetch-Site` must not say the request came from another site. A request with neither
 *   header is not a browser's and carries no ambient cookie to forge with.
 */
export function refuseForgery(request: Request, allowed: OriginAllowed): Response | undefined {
  const type = request.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase()
  if (type !== 'application/json') {
    return failure(415, 'unsupported_media_type', 'The upload proxy accepts application/json bodies only.')
  }
  const origin = request.headers.get('origin')
  if (origin !== null) {
    if (ownOrigin(request, origin) || allowed(origin)) return undefined
    return failure(
      403,
      'origin_not_allowed',
      'The upload proxy does not answer pages on this origin: list it in allowedOrigins if it is yours.',
    )
  }
  const site = request.headers.get('sec-fetch-site')
  if (site === 'cross-site' || site === 'same-site') {
    return failure(403, 'origin_not_allowed', 'The upload proxy does not answer pages on other sites.')
  }
  return undefined
}

/** Whether `origin` is the proxy's own: the same host (and port) as the request was sent to. */
function ownOrigin(request: Request, origin: string): boolean {
  if (!URL.canParse(origin)) return false
  const host = new URL(origin).host.toLowerCase()
  const forwarded = request.headers.get('x-forwarded-host')?.split(',', 1)[0]?.trim().toLowerCase()
  const named = [
    new URL(request.url).host.toLowerCase(),
    request.headers.get('host')?.toLowerCase(),
    forwarded,
  ]
  return named.includes(host)
}
