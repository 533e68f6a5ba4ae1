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
} from '../errors/errors.ts'
import { parseServiceJson } from '../json/service-json.ts'
import type { Redactor } from '../logging/redact.ts'
import type { RawResponse } from './request.ts'
import { parseRetryAfter } from './retry.ts'

/** Codes the open area has been seen to use for success (docs/service/envelopes.md). */
const OPEN_SUCCESS = new Set<unknown>(['0', 0, '200', 200])

/** What a failure of one kind tells the caller to do; a call may say it better for its own case. */
export type ErrorHints = Partial<Record<HintKind, string>>

export interface EnvelopeContext {
  area: ServiceArea
  method: string
  path: string
  redact: Redactor
  /** The call's own hints, replacing the generic ones (e.g. a conflict on create: "invite instead"). */
  hints?: ErrorHints | undefined
}

/** A successful answer: the unwrapped value, and the envelope's traceId when it has one. */
export interface Unwrapped {
  value: unknown
  traceId: string | undefined
}

/** Team area: `{success: true, data}` or `{success: false, error}`. Returns `data`. */
export function unwrapTeam(response: RawResponse, ctx: EnvelopeContext): unknown {
  return unwrapTeamResponse(response, ctx).value
}

/** As `unwrapTeam`, with the traceId of the body when the service sends one. */
export function unwrapTeamResponse(response: RawResponse, ctx: EnvelopeContext): Unwrapped {
  const body = parseBody(response, ctx)
  const ok = response.status >= 200 && response.status < 300
  if (ok && isObject(body) && body.success === true && 'data' in body)
    return { value: body.data, traceId: traceIdOf(body) }
  const text = isObject(body) && typeof body.error === 'string' ? body.error : undefined
  if (ok && text === undefined) throw malformed(response, ctx, body, 'a team envelope {success, data}')
  throw errorForStatus(
    {
      ...base(response, ctx, body),
      status: ok ? 500 : response.status,
      code: teamCode(response.status),
      message: ctx.redact(text ?? `HTTP ${response.status}`),
    },
    ctx.hints,
  )
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
  return unwrapOpenResponse(response, ctx, options).value
}

/** As `unwrapOpen`, with the envelope's traceId (the service sends one on every open-area answer). */
export function unwrapOpenResponse(
  response: RawResponse,
  ctx: EnvelopeContext,
  options: OpenUnwrapOptions = {},
): Unwrapped {
  const body = parseBody(response, ctx)
  const ok = response.status >= 200 && response.status < 300
  if (ok && options.allowBare && Array.isArray(body)) return { value: body, traceId: undefined }
  if (!isObject(body) || !('code' in body)) {
    if (ok) throw malformed(response, ctx, body, 'an open-API envelope {code, message, result}')
    return throwStatus(response, ctx, body)
  }
  if (ok && OPEN_SUCCESS.has(body.code)) return { value: body.result, traceId: traceIdOf(body) }
  if (!ok && OPEN_SUCCESS.has(body.code)) return throwStatus(response, ctx, body)
  const init: ServiceApiErrorInit = {
    ...base(response, ctx, body),
    code: String(body.code),
    message: ctx.redact(
      typeof body.message === 'string' && body.message ? body.message : `service code ${String(body.code)}`,
    ),
  }
  throw ok ? errorForOpenCode(init, ctx.hints) : errorForStatus(init, ctx.hints)
}

function throwStatus(response: RawResponse, ctx: EnvelopeContext, body: unknown): never {
  const message =
    isObject(body) && typeof body.message === 'string' ? body.message : `HTTP ${response.status}`
  throw errorForStatus(
    { ...base(response, ctx, body), code: teamCode(response.status), message: ctx.redact(message) },
    ctx.hints,
  )
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

function traceIdOf(body: unknown): string | undefined {
  return isObject(body) && typeof body.traceId === 'string' && body.traceId !== '' ? body.traceId : undefined
}

function base(response: RawResponse, ctx: EnvelopeContext, body: unknown) {
  const traceId = traceIdOf(body)
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
  seats: 'The team has no free seat: free one or upgrade the plan.',
  notFound: 'Check that the id exists and belongs to this team or space.',
  conflict: 'It exists already: use the existing one instead of creating it again.',
  rateLimit: 'The service is throttling: retry after a pause.',
  server: 'The service failed: retry later, and quote the traceId to support if it persists.',
  invalid: 'Check the request parameters.',
}

/** The kinds of failure an error hint can be given for (see {@link ErrorHints}). */
export type HintKind = keyof typeof HINTS

// The live team API's 401 texts, each with what to do about it.
const AUTH_HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /invalid authorization format/i,
    'The Authorization header must be "Bearer <key>": pass the bare key as apiKey, without a "Bearer " prefix; a proxy may also have rewritten the header.',
  ],
  [
    /invalid api key/i,
    'The service does not know this key: copy the API key again from the team management dashboard (it may have been regenerated or revoked).',
  ],
  [
    /api key is required/i,
    'No key reached the service: pass the API key as apiKey, and check that no proxy strips the Authorization header.',
  ],
]

function hintFor(kind: HintKind, hints: ErrorHints | undefined): string {
  return hints?.[kind] ?? HINTS[kind]
}

function withHint(init: ServiceApiErrorInit, hint: string): ServiceApiErrorInit {
  const trace = init.traceId ? ` (traceId ${init.traceId})` : ''
  const text = init.message.replace(/[.\s]+$/, '')
  return { ...init, message: `${text}${trace}. ${hint}` }
}

function authHint(init: ServiceApiErrorInit, hints: ErrorHints | undefined): string {
  return AUTH_HINTS.find(([text]) => text.test(init.message))?.[1] ?? hintFor('auth', hints)
}

/** Map an HTTP failure to its error class; `hints` are the call's own words for what to do. */
export function errorForStatus(init: ServiceApiErrorInit, hints?: ErrorHints): ServiceApiError {
  const { status } = init
  const hint = (kind: HintKind) => withHint(init, hintFor(kind, hints))
  if (status === 400) return new ServiceInvalidRequestError(hint('invalid'))
  if (status === 401) return new ServiceAuthenticationError(withHint(init, authHint(init, hints)))
  if (status === 403) return permissionError(init, hints)
  if (status === 404) return new ServiceNotFoundError(hint('notFound'))
  if (status === 409) return new ServiceConflictError(hint('conflict'))
  if (status === 429) return new ServiceRateLimitError(hint('rateLimit'))
  if (status >= 500) return new ServiceServerError(hint('server'))
  return new ServiceApiError(init)
}

/** Map an open-area failure code (HTTP 200, code other than success) to its error class. */
export function errorForOpenCode(init: ServiceApiErrorInit, hints?: ErrorHints): ServiceApiError {
  const hint = (kind: HintKind) => withHint(init, hintFor(kind, hints))
  switch (init.code) {
    case 'MB100001':
    case 'MB100004':
      return new ServiceInvalidRequestError(hint('invalid'))
    case 'MB100002':
      return permissionError(init, hints)
    case 'MB100003':
      return new ServiceNotFoundError(hint('notFound'))
    case 'MS100001':
      return new ServiceServerError({ ...hint('server'), isRetryable: true })
    case 'MS100003':
      return new ServiceRateLimitError({ ...hint('rateLimit'), isRetryable: true })
    default:
      return new ServiceApiError({ ...init, isRetryable: false })
  }
}

const DOMAIN = /@?((?:[a-z0-9-]+\.)+[a-z]{2,})/i

function permissionError(init: ServiceApiErrorInit, hints?: ErrorHints): ServicePermissionError {
  const text = init.message
  let reason: PermissionReason = 'other'
  let hint = hintFor('permission', hints)
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
