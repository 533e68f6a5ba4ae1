import type { z } from 'zod'
import { type ServiceArea, ServiceResponseError } from '../errors/errors.ts'
import { stringifyServiceJson } from '../json/service-json.ts'
import { type Logger, redactingLogger } from '../logging/logger.ts'
import { createRedactor, type Redactor } from '../logging/redact.ts'
import { crossOrigin, likelyCors } from '../origin/cross-origin.ts'
import type { Instrumentation } from '../tracing/instrumentation.ts'
import { VERSION } from '../version.ts'
import type { Clock, ResponseInfo } from './context.ts'
import { type ErrorHints, type Unwrapped, unwrapOpenResponse, unwrapTeamResponse } from './envelope.ts'
import { expandPath, type Operation } from './operation.ts'
import { type RawSendState, sendRaw } from './raw-send.ts'
import { execute, type RawResponse, systemClock } from './request.ts'
import { type RetryOptions, resolveRetry } from './retry.ts'

/** Options every client accepts. Defaults are documented in each client's README. */
export interface ClientOptions {
  /** Time allowed for one attempt (connect, send, read the whole body). Default 30,000 ms. */
  timeoutMs?: number
  /** Retry policy, or `false` for none. Default: 2 retries with exponential backoff and jitter. */
  retry?: RetryOptions | false
  /** A `fetch` to use instead of the global one (proxies, tests). */
  fetch?: typeof globalThis.fetch
  /** Where the SDK logs (debug: every request; warn: retries). Secrets are redacted. Default: silent. */
  logger?: Partial<Logger>
  /** Appended to the SDK's User-Agent, e.g. `my-app/1.2`. */
  userAgent?: string
  /** Check every response against the SDK's schemas and throw `ServiceResponseError` on a mismatch. Default false. */
  validateResponses?: boolean
  /** Told of every successful response of this client (status, traceId, headers): for logs and metrics. */
  onResponse?: (info: ResponseInfo) => void
  /**
   * Tracing: a span per call (`otelInstrumentation()` from `@service-sdk/core/otel`), active while
   * the call runs and sent along as the request's trace headers (`traceparent`). Default: none.
   */
  instrumentation?: Instrumentation
}

/** Options of a single call. */
export interface CallOptions {
  /** Aborts the call; the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number
  /**
   * Told of each successful response of this call (a call that sends several requests, such as a
   * long material save, tells each). `withResponse()` is the convenient way to use it.
   */
  onResponse?: (info: ResponseInfo) => void
}

export const DEFAULT_TIMEOUT_MS = 30_000

export interface TransportInit extends ClientOptions {
  area: ServiceArea
  baseUrl: string
  /** The full `Authorization` header value. */
  authorization: string
  /** Values to scrub from anything logged or thrown. */
  secrets: ReadonlyArray<string | undefined>
  /** Names the client in the User-Agent, e.g. `team`. */
  client: string
  /** For tests: a fake clock. */
  clock?: Clock
}

export interface SendSpec<S extends z.ZodType | undefined> {
  /** Which operation of the spec: its method and path template. */
  operation: Operation
  /** Values of the path template's `{name}` parameters. */
  pathParams?: Readonly<Record<string, string>>
  /** The request body, serialised with the lossless JSON codec (ids as JSON integers). */
  body?: unknown
  /** Headers besides Authorization, User-Agent and (with a body) Content-Type. */
  headers?: Readonly<Record<string, string>>
  /** Whether sending the request twice has the effect of sending it once (see `isRetryableFor`). */
  idempotent: boolean
  /** Checks the unwrapped result when `validateResponses` is on. */
  schema?: S
  /** Open area: also accept a bare result without the envelope. */
  allowBare?: boolean
  /** What this call's failures tell the caller to do, in place of the generic hints. */
  hints?: ErrorHints
}

export interface Transport {
  readonly area: ServiceArea
  readonly redact: Redactor
  readonly logger: Logger
  /**
   * Whether answers are checked against a `schema` (`validateResponses`): a client that loads its
   * schemas on demand passes one only then.
   */
  readonly validatesResponses: boolean
  /** Send with retries and timeouts; returns the unwrapped `data` / `result`. */
  send<T>(spec: SendSpec<z.ZodType | undefined>, options?: CallOptions): Promise<T>
  /**
   * Send a request built elsewhere (the `raw` client's) with this transport's authorization,
   * timeouts, retries and tracing; a failure the envelope reports is thrown as its typed error,
   * and a success comes back as the service sent it, with a lossless `json()` (raw-send.ts).
   */
  sendRaw(request: Request, template?: string): Promise<Response>
}

/*
 * Why not openapi-fetch: each attempt must read the whole body inside its time budget and parse it
 * with the lossless JSON codec (64-bit ids), then unwrap the area's envelope; openapi-fetch's
 * response handling would be skipped on every call, and its `Request` object cost about a tenth
 * of a call in bench/client-overhead. What it would still do here (fill a path template, serialise
 * a body) is `expandPath` and `stringifyServiceJson`; the spec still types every operation
 * (`operation()` in operation.ts), and the browser bundle carries no client it does not use.
 * openapi-fetch is the clients' `raw` escape hatch instead (raw-client.ts): typed by the spec's
 * paths, sending through `sendRaw` (raw-send.ts), loaded on its first call.
 */

/** What every request of one transport shares. */
export interface TransportState extends RawSendState {
  init: TransportInit
  /**
   * `baseUrl` without its trailing slashes, worked out once rather than by a regular expression
   * on every call (in bench/client-overhead, alternating builds: the SDK's p50 1.096-1.106x
   * fetch's before, 1.094-1.102x after; in a run of four clients without `raw`, 1.094-1.099x
   * before and 1.084-1.089x after).
   */
  base: string
}

function userAgent(client: string, extra: string | undefined): string {
  const runtime =
    typeof process !== 'undefined' && process.versions?.node ? ` node/${process.versions.node}` : ''
  return `service-sdk-js/${VERSION} (${client})${runtime}${extra ? ` ${extra}` : ''}`
}

// Browsers forbid or preflight a custom User-Agent; send it only where it is ours to set.
const CAN_SET_USER_AGENT = typeof document === 'undefined'

function both(
  client: ((info: ResponseInfo) => void) | undefined,
  call: ((info: ResponseInfo) => void) | undefined,
): ((info: ResponseInfo) => void) | undefined {
  if (!client || !call) return client ?? call
  return (info) => {
    client(info)
    call(info)
  }
}

export function createTransport(init: TransportInit): Transport {
  const redact = createRedactor(init.secrets)
  const logger = redactingLogger(init.logger, redact)
  const headers: Record<string, string> = { Authorization: init.authorization }
  if (CAN_SET_USER_AGENT) headers['User-Agent'] = userAgent(init.client, init.userAgent)
  const state: TransportState = {
    init,
    base: init.baseUrl.replace(/\/+$/, ''),
    headers,
    fetch: init.fetch ?? globalThis.fetch.bind(globalThis),
    ctx: {
      area: init.area,
      timeoutMs: init.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: resolveRetry(init.retry),
      logger,
      redact,
      clock: init.clock ?? systemClock,
      instrumentation: init.instrumentation,
    },
  }
  return {
    area: init.area,
    redact,
    logger,
    validatesResponses: init.validateResponses ?? false,
    send: <T>(spec: SendSpec<z.ZodType | undefined>, options: CallOptions = {}) =>
      send<T>(state, spec, options),
    sendRaw: (request, template) => sendRaw(state, request, template),
  }
}

function send<T>(state: TransportState, spec: SendSpec<z.ZodType | undefined>, options: CallOptions) {
  const { method } = spec.operation
  const path = expandPath(spec.operation.path, spec.pathParams)
  const url = `${state.base}${path}`
  const headers =
    spec.body === undefined
      ? { ...state.headers, ...spec.headers }
      : { ...state.headers, 'Content-Type': 'application/json', ...spec.headers }
  const body = spec.body === undefined ? undefined : stringifyServiceJson(spec.body)
  return execute<T>(state.ctx, {
    method,
    path,
    template: spec.operation.path,
    idempotent: spec.idempotent,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    // The body is read here, inside the attempt's time budget, for the lossless parser.
    async send(signal, traceHeaders) {
      const sent = traceHeaders && !crossOrigin(url) ? { ...headers, ...traceHeaders } : headers
      const response = await state
        .fetch(url, { method, headers: sent, body: body ?? null, signal })
        .catch((error: unknown) => {
          throw likelyCors(error, url, { method, path: spec.operation.path }) ?? error
        })
      return { status: response.status, headers: response.headers, text: await response.text() }
    },
    unwrap: (response) => unwrap(state, spec, path, response) as { value: T; traceId: string | undefined },
    onResponse: both(state.init.onResponse, options.onResponse),
  })
}

function unwrap(
  state: TransportState,
  spec: SendSpec<z.ZodType | undefined>,
  path: string,
  response: RawResponse,
): Unwrapped {
  const { area } = state.init
  const { method } = spec.operation
  const where = { area, method, path, redact: state.ctx.redact, hints: spec.hints }
  const unwrapped =
    area === 'team'
      ? unwrapTeamResponse(response, where)
      : unwrapOpenResponse(response, where, { allowBare: spec.allowBare ?? false })
  if (!state.init.validateResponses || !spec.schema) return unwrapped
  const { value } = unwrapped
  const parsed = spec.schema.safeParse(value)
  if (parsed.success) return { value: parsed.data, traceId: unwrapped.traceId }
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
  throw new ServiceResponseError({
    status: response.status,
    code: 'invalid_response',
    area,
    method,
    path,
    body: state.ctx.redact(value),
    message: `The response to ${method} ${path} does not match the SDK's schema: ${issues}`,
    isRetryable: false,
  })
}
