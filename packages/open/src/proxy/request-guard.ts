import { forgeryVerdict, type OriginAllowed } from '@service-sdk/core/internal'
import { failure } from './responses.ts'

export { type OriginAllowed, originCheck } from '@service-sdk/core/internal'

/**
 * The proxy's defence against cross-site request forgery, before `authorize` runs (a cookie
 * session is exactly what a forged request would ride on): core's `forgeryVerdict` (JSON bodies
 * only; a browser's `Origin` the proxy's own or one of `allowedOrigins`; without `Origin`, no
 * `Sec-Fetch-Site` saying another site), answered as the proxy's failures.
 */
export function refuseForgery(request: Request, allowed: OriginAllowed): Response | undefined {
  switch (forgeryVerdict(request, allowed)) {
    case undefined:
      return undefined
    case 'not_json':
      return failure(415, 'unsupported_media_type', 'The upload proxy accepts application/json bodies only.')
    case 'foreign_origin':
      return failure(
        403,
        'origin_not_allowed',
        'The upload proxy does not answer pages on this origin: list it in allowedOrigins if it is yours.',
      )
    case 'cross_site':
      return failure(403, 'origin_not_allowed', 'The upload proxy does not answer pages on other sites.')
  }
}
