import createClient, { type Client } from 'openapi-fetch'
import type { z } from 'zod'
import { type ErrorHints, type Unwrapped, unwrapOpenResponse, unwrapTeamResponse } from './envelope.ts'
import { type ServiceArea, ServiceConnectionError, ServiceResponseError } from './errors.ts'
import { stringifyServiceJson } from './ids.ts'
import { type Logger, redactingLogger } from './logger.ts'
import { createRedactor, type Redactor } from './redact.ts'
import {
  type Clock,
  execute,
  type RawResponse,
  type RequestContext,
  type ResponseInfo,
  systemClock,
} from './request.ts'
import { type RetryOptions, resolveRetry } from './retry.ts'
import { VERSION } from './version.ts'

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

/** What one typed openapi-fetch call needs from the transport for an attempt (a type alias: openapi-fetch wants an index signature). */
export type AttemptInit = {
  signal: AbortSignal
  fetch: (request: Request) => Promise<Response>
  parseAs: 'stream'
}

export interface SendSpec<S extends z.ZodType | undefined> {
  method: string
  path: string
  idempotent: boolean
  /** Performs the typed openapi-fetch call, passing `init` through. */
  call: (init: AttemptInit) => Promise<unknown>
  /** Checks the unwrapped result when `validateResponses` is on. */
  schema?: S
  /** Open area: also accept a bare result without the envelope. */
  allowBare?: boolean
  /** What this call's failures tell the caller to do, in place of the generic hints. */
  hints?: ErrorHints
}

export interface Transport<Paths extends {}> {
  readonly area: ServiceArea
  /** openapi-fetch client for typed request building; use it only through `send`. */
  readonly client: Client<Paths>
  readonly redact: Redactor
  readonly logger: Logger
  /** Send with retries and timeouts; returns the unwrapped `data` / `result`. */
  send<T>(spec: SendSpec<z.ZodType | undefined>, options?: CallOptions): Promise<T>
}

const CAPTURED = Symbol('response captured')

/**
 * What openapi-fetch builds in place of a `Request`: the URL and init, handed to `fetch` as they
 * are. `fetch` builds its own Request from them; building one here too cost a tenth of a call.
 */
class PreparedRequest {
  readonly url: string
  readonly init: RequestInit
  readonly method: string

  constructor(url: string, init: RequestInit) {
    this.url = url
    this.init = init
    this.method = init.method ?? 'GET'
  }
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

/**
 * A browser reports a cross-origin request refused by CORS as a bare TypeError, like any network
 * failure: from a page, to another origin, CORS is the likely cause, and the error says so.
 */
function likelyCors(error: unknown, url: string, spec: { method: string; path: string }) {
  const page = globalThis.location?.origin
  if (!(error instanceof TypeError) || !page || typeof document === 'undefined') return undefined
  const target = new URL(url, page).origin
  if (target === page) return undefined
  return new ServiceConnectionError(
    `Could not complete ${spec.method} ${spec.path}: the browser could not reach ${target} from ${page}. The likely cause is CORS: ${target} does not allow requests from this page's origin. Call the service from your server (for uploads, through the upload proxy of @service-sdk/open/proxy and createOpenClient({ proxyUrl })); if ${target} is your own proxy, allow ${page} in its CORS settings. The request may or may not have reached it.`,
    { reachedServer: 'unknown', cause: error },
  )
}

export function createTransport<Paths extends {}>(init: TransportInit): Transport<Paths> {
  const redact = createRedactor(init.secrets)
  const logger = redactingLogger(init.logger, redact)
  const userFetch = init.fetch ?? globalThis.fetch.bind(globalThis)
  const validate = init.validateResponses ?? false
  const ctx: RequestContext = {
    area: init.area,
    timeoutMs: init.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: resolveRetry(init.retry),
    logger,
    redact,
    clock: init.clock ?? systemClock,
  }
  const headers: Record<string, string> = { Authorization: init.authorization }
  if (CAN_SET_USER_AGENT) headers['User-Agent'] = userAgent(init.client, init.userAgent)
  const client = createClient<Paths>({
    baseUrl: init.baseUrl,
    headers,
    bodySerializer: stringifyServiceJson,
    Request: PreparedRequest as unknown as typeof Request,
  })

  const unwrap = (spec: SendSpec<z.ZodType | undefined>, response: RawResponse): Unwrapped => {
    const where = { area: init.area, method: spec.method, path: spec.path, redact, hints: spec.hints }
    const unwrapped =
      init.area === 'team'
        ? unwrapTeamResponse(response, where)
        : unwrapOpenResponse(response, where, { allowBare: spec.allowBare ?? false })
    if (!validate || !spec.schema) return unwrapped
    const { value } = unwrapped
    const parsed = spec.schema.safeParse(value)
    if (parsed.success) return { value: parsed.data, traceId: unwrapped.traceId }
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
    throw new ServiceResponseError({
      status: response.status,
      code: 'invalid_response',
      area: init.area,
      method: spec.method,
      path: spec.path,
      body: redact(value),
      message: `The response to ${spec.method} ${spec.path} does not match the SDK's schema: ${issues}`,
      isRetryable: false,
    })
  }

  return {
    area: init.area,
    client,
    redact,
    logger,
    send<T>(spec: SendSpec<z.ZodType | undefined>, options: CallOptions = {}): Promise<T> {
      return execute(ctx, {
        method: spec.method,
        path: spec.path,
        idempotent: spec.idempotent,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        async send(signal) {
          let raw: RawResponse | undefined
          // openapi-fetch builds the typed request; the body is read here, inside the attempt's
          // time budget, for the lossless parser. Throwing `CAPTURED` once it is read skips
          // openapi-fetch's own response handling, which would only be thrown away.
          const fetch = async (request: Request): Promise<Response> => {
            const prepared = request as unknown as PreparedRequest
            const response = await userFetch(prepared.url, prepared.init).catch((error: unknown) => {
              throw likelyCors(error, prepared.url, spec) ?? error
            })
            raw = { status: response.status, headers: response.headers, text: await response.text() }
            throw CAPTURED
          }
          try {
            await spec.call({ signal, fetch, parseAs: 'stream' })
          } catch (error) {
            if (error !== CAPTURED) throw error
          }
          if (!raw) throw new Error('the transport fetch was not called')
          return raw
        },
        unwrap: (response) => unwrap(spec, response) as { value: T; traceId: string | undefined },
        onResponse: both(init.onResponse, options.onResponse),
      })
    },
  }
}
