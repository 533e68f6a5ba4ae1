import {
  ServiceApiError,
  ServiceAuthenticationError,
  ServiceConflictError,
  ServiceConnectionError,
  ServiceError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceRateLimitError,
  ServiceTimeoutError,
  ServiceValidationError,
  UploadError,
} from '@service-sdk/core'
import type { ApiError } from '@service-sdk/demo-web/api'
import { SpaceNotWritableError } from '@service-sdk/open'

/** A failure of the demo's own making (bad request to the demo, size cap, shutting down). */
export class DemoError extends Error {
  override readonly name = 'DemoError'
  readonly status: number
  readonly code: string
  readonly issues: ApiError['issues']
  constructor(status: number, code: string, message: string, issues?: ApiError['issues']) {
    super(message)
    this.status = status
    this.code = code
    this.issues = issues
  }
}

export interface HttpError {
  status: number
  body: { error: ApiError }
  headers?: Record<string, string>
}

/**
 * What the page is told about a failure. The SDK's messages never hold a key, token or login URL,
 * so they can be shown as they are; anything unexpected is reported as an internal error (and
 * logged on the server), never with its details.
 */
export function toHttpError(error: unknown): HttpError {
  const make = (status: number, code: string, message: string, extra: Partial<ApiError> = {}): HttpError => ({
    status,
    body: { error: { code, message, status, ...extra } },
  })

  if (error instanceof DemoError) {
    return make(error.status, error.code, error.message, error.issues ? { issues: error.issues } : {})
  }
  if (isAbort(error)) return make(499, 'cancelled', 'The upload was cancelled.')
  if (ServiceValidationError.isInstance(error)) {
    return make(400, 'invalid_input', error.message, {
      issues: error.issues.map((i) => ({ field: i.path || 'input', message: i.message })),
    })
  }
  // The open client's own write-rule check (nothing was sent): a refusal like the service's.
  if (SpaceNotWritableError.isInstance(error)) return make(403, 'forbidden', error.message)
  if (ServicePermissionError.isInstance(error)) {
    if (error.reason === 'domain-not-whitelisted') {
      return make(
        403,
        'domain_not_whitelisted',
        serviceText(error),
        error.domain ? { domain: error.domain } : {},
      )
    }
    return make(403, error.reason === 'seat-limit' ? 'seat_limit' : 'forbidden', serviceText(error))
  }
  if (ServiceNotFoundError.isInstance(error)) return make(404, 'not_found', serviceText(error))
  if (ServiceConflictError.isInstance(error)) return make(409, 'conflict', serviceText(error))
  if (ServiceAuthenticationError.isInstance(error)) {
    return make(
      502,
      'upstream_unauthorized',
      `The service refused this server's credentials (${error.area === 'team' ? 'SERVICE_TEAM_API_KEY' : error.area === 'subscription' ? 'SERVICE_API_KEY' : 'SERVICE_OPEN_TOKEN'}). Check the server's configuration.`,
    )
  }
  if (ServiceRateLimitError.isInstance(error)) {
    const http = make(429, 'rate_limited', error.message)
    if (error.retryAfterMs !== undefined)
      http.headers = { 'retry-after': String(Math.ceil(error.retryAfterMs / 1000)) }
    return http
  }
  if (ServiceTimeoutError.isInstance(error)) return make(504, 'upstream_timeout', error.message)
  if (ServiceConnectionError.isInstance(error)) return make(502, 'upstream_unreachable', error.message)
  if (UploadError.isInstance(error)) return make(502, 'upload_failed', error.message)
  if (ServiceApiError.isInstance(error)) {
    const status = error.status >= 400 && error.status < 500 ? error.status : 502
    return make(status, 'service_error', error.message)
  }
  if (ServiceError.isInstance(error)) return make(502, 'service_error', error.message)
  return make(500, 'internal', 'Something went wrong in the demo server; its log has the details.')
}

/**
 * The service's own words for a refusal (e.g. the whitelist text naming the domain), which the
 * page shows as they are; the SDK adds advice after them, which is for developers.
 */
function serviceText(error: ServiceApiError): string {
  const body = error.body as { error?: unknown; message?: unknown } | undefined
  const text =
    typeof body?.error === 'string'
      ? body.error
      : typeof body?.message === 'string'
        ? body.message
        : undefined
  return text && text.trim() !== '' ? text : error.message
}

export function isAbort(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'AbortError' || error.name === 'UploadCancelled')
  )
}
