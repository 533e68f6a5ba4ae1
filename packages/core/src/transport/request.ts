import {
  ServiceApiError,
  ServiceConnectionError,
  ServiceError,
  ServiceTimeoutError,
} from '../errors/errors.ts'
import { type RequestSpan, requestSpan } from '../tracing/request-span.ts'
import type { Clock, RequestContext, ResponseInfo } from './context.ts'
import { backoffDelay, isRetryableFor } from './retry.ts'
import { sleep } from './sleep.ts'

/** A response, read whole within the attempt's time budget. */
export interface RawResponse {
  status: number
  headers: Headers
  text: string
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: Math.random,
  sleep,
}

export interface AttemptSpec<T> {
  method: string
  path: string
  /** The operation's path template (`/api/team/members/{userId}`), for traces; default `path`. */
  template?: string | undefined
  /** Whether sending the request twice has the effect of sending it once. */
  idempotent: boolean
  signal?: AbortSignal | undefined
  timeoutMs?: number | undefined
  /**
   * One attempt: send, and read the whole body, honouring `signal`. `traceHeaders` carry the
   * call's span to the service (`traceparent`); undefined when tracing is off or propagates nothing.
   */
  send(signal: AbortSignal, traceHeaders: Readonly<Record<string, string>> | undefined): Promise<RawResponse>
  /** Turn a response into the result (and its traceId), or throw the typed error it means. */
  unwrap(response: RawResponse): { value: T; traceId: string | undefined }
  /** Told of the successful response (the client's and the call's `onResponse`). */
  onResponse?: ((info: ResponseInfo) => void) | undefined
}

/**
 * Runs a request with per-attempt timeouts and retries. The loop wraps the whole attempt, body
 * and envelope included, because the open area reports "busy" inside a 200 envelope and because
 * a timeout must also cover a body that stalls.
 */
export async function execute<T>(ctx: RequestContext, spec: AttemptSpec<T>): Promise<T> {
  const span = requestSpan(ctx, spec)
  return span.run(() => attempts(ctx, spec, span))
}

async function attempts<T>(ctx: RequestContext, spec: AttemptSpec<T>, span: RequestSpan): Promise<T> {
  const { signal } = spec
  const timeoutMs = spec.timeoutMs ?? ctx.timeoutMs
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted()
    const started = ctx.clock.now()
    try {
      const response = await withTimeout(timeoutMs, signal, (s) => spec.send(s, span.headers))
      const { value, traceId } = spec.unwrap(response)
      const info: ResponseInfo = {
        status: response.status,
        traceId,
        headers: response.headers,
        method: spec.method,
        path: spec.path,
        attempt: attempt + 1,
        durationMs: ctx.clock.now() - started,
      }
      ctx.logger.debug('service request', {
        ...where(ctx, spec, attempt),
        status: info.status,
        traceId,
        durationMs: info.durationMs,
      })
      span.succeeded(info)
      tell(ctx, spec, info)
      return value
    } catch (caught) {
      if (signal?.aborted) {
        span.failed(signal.reason, attempt + 1)
        throw signal.reason
      }
      const error = asServiceError(caught, spec)
      const delay =
        attempt < ctx.retry.maxRetries && isRetryableFor(error, spec.idempotent)
          ? backoffDelay(attempt, ctx.retry, retryAfterOf(error), ctx.clock.random)
          : undefined
      const fields = {
        ...where(ctx, spec, attempt),
        code: error.code,
        status: ServiceApiError.isInstance(error) ? error.status : undefined,
        traceId: ServiceApiError.isInstance(error) ? error.traceId : undefined,
        durationMs: ctx.clock.now() - started,
      }
      if (delay === undefined) {
        ctx.logger.debug('service request failed', fields)
        span.failed(error, attempt + 1)
        throw error
      }
      ctx.logger.warn('service request failed; retrying', { ...fields, delayMs: delay })
      span.retrying(attempt + 1, error, delay)
      await ctx.clock.sleep(delay, signal).catch((reason: unknown) => {
        span.failed(reason, attempt + 1)
        throw reason
      })
    }
  }
}

// A hook that throws must not turn a completed call (maybe a create) into a failure.
function tell(ctx: RequestContext, spec: AttemptSpec<unknown>, info: ResponseInfo): void {
  try {
    spec.onResponse?.(info)
  } catch (error) {
    ctx.logger.warn('onResponse hook threw; the call itself succeeded', {
      method: spec.method,
      path: spec.path,
      error: error instanceof Error ? error.message : String(error),
    })
  }
}

function where(ctx: RequestContext, spec: AttemptSpec<unknown>, attempt: number) {
  return { area: ctx.area, method: spec.method, path: spec.path, attempt: attempt + 1 }
}

function retryAfterOf(error: ServiceError): number | undefined {
  return ServiceApiError.isInstance(error) ? error.retryAfterMs : undefined
}

class AttemptTimeout extends Error {}

async function withTimeout<T>(
  ms: number,
  userSignal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timer = new AbortController()
  const handle = setTimeout(() => timer.abort(new AttemptTimeout()), ms)
  const signal = userSignal ? AbortSignal.any([userSignal, timer.signal]) : timer.signal
  try {
    return await run(signal)
  } catch (error) {
    if (timer.signal.aborted && !userSignal?.aborted) {
      throw new ServiceTimeoutError(
        `The request took longer than ${ms} ms and was abandoned. Raise timeoutMs if the service is slow, or retry.`,
        { timeoutMs: ms },
      )
    }
    throw error
  } finally {
    clearTimeout(handle)
  }
}

// Node's fetch (undici) puts the socket error code on `cause`. These codes mean no byte of the
// request left this machine, so even a create may be sent again.
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])

function asServiceError(error: unknown, spec: AttemptSpec<unknown>): ServiceError {
  if (ServiceError.isInstance(error)) return error
  const code = errorCode(error)
  const reachedServer = code !== undefined && NEVER_SENT.has(code) ? false : 'unknown'
  return new ServiceConnectionError(
    `Could not complete ${spec.method} ${spec.path}${code ? ` (${code})` : ''}. Check the base URL and the network; the request ${reachedServer === false ? 'was not sent' : 'may or may not have reached the service'}.`,
    { reachedServer, cause: error },
  )
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}
