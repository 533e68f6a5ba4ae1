/** Which page origins besides the server's own may send it requests that change something. */
export type OriginAllowed = (origin: string) => boolean

/** An `allowedOrigins` option (a list or a function) as a check. */
export function originCheck(allowed: readonly string[] | OriginAllowed | undefined): OriginAllowed {
  if (typeof allowed === 'function') return allowed
  const list = new Set(allowed ?? [])
  return (origin) => list.has(origin)
}

/** Why a request may be forged by another site's page; see `forgeryVerdict`. */
export type ForgeryVerdict = 'not_json' | 'foreign_origin' | 'cross_site'

/**
 * A server's defence against cross-site request forgery, for requests a cookie session may ride
 * on (the upload proxy, the webhook console's actions); `undefined` when the request may go on:
 * - the body must be declared `application/json`: a form or `text/plain` body is what a page on
 *   another site can send without the browser asking the server first (a CORS preflight);
 * - a browser's `Origin` must be the server's own (its host, as the request, `Host` or
 *   `X-Forwarded-Host` names it) or an allowed one; without `Origin`, a browser's
 *   `Sec-Fetch-Site` must not say the request came from another site. A request with neither
 *   header is not a browser's and carries no ambient cookie to forge with.
 */
export function forgeryVerdict(request: Request, allowed: OriginAllowed): ForgeryVerdict | undefined {
  const type = request.headers.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase()
  if (type !== 'application/json') return 'not_json'
  const origin = request.headers.get('origin')
  if (origin !== null) return ownOrigin(request, origin) || allowed(origin) ? undefined : 'foreign_origin'
  const site = request.headers.get('sec-fetch-site')
  return site === 'cross-site' || site === 'same-site' ? 'cross_site' : undefined
}

/** Whether `origin` is the server's own: the same host (and port) as the request was sent to. */
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
