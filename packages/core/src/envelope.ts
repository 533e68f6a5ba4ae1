import {
  type PermissionReason,
  ServiceApiError,
  type ServiceApiErrorInit,
  type ServiceArea,
  ServiceAuthenticationError,
  ServiceConflictError,
  ServiceInvalidRequestError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceRateLimitError,
  ServiceResponseError,
  ServiceServerError,
} from './errors.ts'
import { parseServiceJson } from './ids.ts'
import type { Redactor } from './redact.ts'
import type { RawResponse } from './request.ts'
import { parseRetryAfter } from './retry.ts'

/** Codes the open area has been seen to use for success (field-notes §3). */
const OPEN_SUCCESS = new Set<unknown>(['0', 0, '200', 200])

export interface EnvelopeContext {
  area: ServiceArea
  method: string
  path: string
  redact: Redactor
}

/** Team area: `{success: true, data}` or `{success: false, error}`. Returns `data`. */
export function unwrapTeam(response: RawResponse, ctx: EnvelopeContext): unknown {
  const body = parseBody(response, ctx)
  const ok = response.status >= 200 && response.status < 300
  if (ok && isObject(body) && body.success === true && 'data' in body) return body.data
  const text = isObject(body) && typeof body.error === 'string' ? body.error : undefined
  if (ok && text === undefined) throw malformed(response, ctx, body, 'a team envelope {success, data}')
  throw errorForStatus({
    ...base(response, ctx, body),
    status: ok ? 500 : response.status,
    code: teamCode(response.status),
    message: ctx.redact(text ?? `HTTP ${response.status}`),
  })
}

export interface OpenUnwrapOptions {
  /** Also accept a bare result with no envelope (the event-types query may answer either way). */
  allowBare?: boolean
}

/** Open area: `{code, message, result, traceId?}` where code "0" is success. Returns `result`. */
export function unwrapOpen(
  response: RawResponse,
  ctx: EnvelopeContext,
  options: OpenUnwrapOptions = {},
): unknown {
  const body = parseBody(response, ctx)
  const ok = response.status >= 200 && response.status < 300
  if (ok && options.allowBare && Array.isArray(body)) return body
  if (!isObject(body) || !('code' in body)) {
    if (ok) throw malformed(response, ctx, body, 'an open-API envelope {code, message, result}')
    return throwStatus(response, ctx, body)
  }
  if (ok && OPEN_SUCCESS.has(body.code)) return body.result
  if (!ok && OPEN_SUCCESS.has(body.code)) return throwStatus(response, ctx, body)
  const init: ServiceApiErrorInit = {
    ...base(response, ctx, body),
    code: String(body.code),
    message: ctx.redact(
      typeof body.message === 'string' && body.message ? body.message : `service code ${String(body.code)}`,
    ),
  }
  throw ok ? errorForOpenCode(init) : errorForStatus(init)
}

function throwStatus(response: RawResponse, ctx: EnvelopeContext, body: unknown): never {
  const message =
    isObject(body) && typeof body.message === 'string' ? body.message : `HTTP ${response.status}`
  throw errorForStatus({
    ...base(response, ctx, body),
    code: teamCode(response.status),
    message: ctx.redact(message),
  })
}

// A non-JSON body (a proxy's HTML error page) is kept as a short redacted snippet: for a
// failure status the status says enough; for a success status it is a malformed response.
function parseBody(response: RawResponse, ctx: EnvelopeContext): unknown {
  if (response.text === '') return undefined
  try {
    return parseServiceJson(response.text)
  } catch {
    const snippet = ctx.redact(response.text.slice(0, 200))
    if (response.status < 400) throw malformed(response, ctx, snippet, 'JSON')
    return snippet
  }
}

function base(response: RawResponse, ctx: EnvelopeContext, body: unknown) {
  const traceId = isObject(body) && typeof body.traceId === 'string' ? body.traceId : undefined
  return {
    status: response.status,
    area: ctx.area,
    method: ctx.method,
    path: ctx.path,
    traceId,
    body: ctx.redact(body),
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  }
}

function malformed(response: RawResponse, ctx: EnvelopeContext, body: unknown, expected: string) {
  return new ServiceResponseError({
    ...base(response, ctx, body),
    code: 'invalid_response',
    message: `The service answered ${ctx.method} ${ctx.path} with a body that is not ${expected}. This is a service or proxy fault; it is not retried.`,
    isRetryable: false,
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function teamCode(status: number): string {
  if (status >= 500) return 'server_error'
  return STATUS_CODES[status] ?? `http_${status}`
}

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  429: 'rate_limited',
}

const HINTS = {
  auth: 'Check the key or token the client was created with.',
  permission: 'The credentials are valid but not allowed to do this.',
  whitelist:
    "Add the domain to the team's verified domain whitelist in the team dashboard, or use an address on a whitelisted domain.",
  seats: 'The team has no free seat; free one or upgrade the plan.',
  notFound: 'Check the id.',
  conflict: 'It exists already.',
  rateLimit: 'The service is throttling; retry after a pause.',
  server: 'The service failed; retry later, and quote the traceId to support if it persists.',
  invalid: 'Check the request parameters.',
}

function withHint(init: ServiceApiErrorInit, hint: string): ServiceApiErrorInit {
  const trace = init.traceId ? ` (traceId ${init.traceId})` : ''
  return { ...init, message: `${init.message}${trace}. ${hint}` }
}

/** Map an HTTP failure to its error class. */
export function errorForStatus(init: ServiceApiErrorInit): ServiceApiError {
  const { status } = init
  if (status === 400) return new ServiceInvalidRequestError(withHint(init, HINTS.invalid))
  if (status === 401) return new ServiceAuthenticationError(withHint(init, HINTS.auth))
  if (status === 403) return permissionError(init)
  if (status === 404) return new ServiceNotFoundError(withHint(init, HINTS.notFound))
  if (status === 409) return new ServiceConflictError(withHint(init, HINTS.conflict))
  if (status === 429) return new ServiceRateLimitError(withHint(init, HINTS.rateLimit))
  if (status >= 500) return new ServiceServerError(withHint(init, HINTS.server))
  return new ServiceApiError(init)
}

/** Map an open-area failure code (HTTP 200, code other than success) to its error class. */
export function errorForOpenCode(init: ServiceApiErrorInit): ServiceApiError {
  switch (init.code) {
    case 'MB100001':
    case 'MB100004':
      return new ServiceInvalidRequestError(withHint(init, HINTS.invalid))
    case 'MB100002':
      return permissionError(init)
    case 'MB100003':
      return new ServiceNotFoundError(withHint(init, HINTS.notFound))
    case 'MS100001':
      return new ServiceServerError({ ...withHint(init, HINTS.server), isRetryable: true })
    case 'MS100003':
      return new ServiceRateLimitError({ ...withHint(init, HINTS.rateLimit), isRetryable: true })
    default:
      return new ServiceApiError({ ...init, isRetryable: false })
  }
}

const DOMAIN = /@?((?:[a-z0-9-]+\.)+[a-z]{2,})/i

function permissionError(init: ServiceApiErrorInit): ServicePermissionError {
  const text = init.message
  let reason: PermissionReason = 'other'
  let hint = HINTS.permission
  let domain: string | undefined
  if (/white\s?list/i.test(text)) {
    reason = 'domain-not-whitelisted'
    hint = HINTS.whitelist
    domain = DOMAIN.exec(text)?.[1]?.toLowerCase()
  } else if (/seat/i.test(text)) {
    reason = 'seat-limit'
    hint = HINTS.seats
  } else if (/capabilit|not enabled/i.test(text)) {
    reason = 'capability'
  }
  return new ServicePermissionError({ ...withHint(init, hint), reason, domain, isRetryable: false })
}
