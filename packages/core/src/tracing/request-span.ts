import type { ServiceArea } from '../errors/errors.ts'
import type { ResponseInfo } from '../transport/response-info.ts'
import { errorType, type Instrumentation, type SpanHandle, startSpan } from './instrumentation.ts'

/** The span of one client call, retries included: what `execute` tells it, in one place. */
export interface RequestSpan {
  /** Runs the call with its span active, so spans started inside it (a traced `fetch`) nest. */
  run<T>(call: () => Promise<T>): Promise<T>
  /** The headers that carry the span's context to the service (empty without a propagator). */
  readonly headers: Readonly<Record<string, string>> | undefined
  retrying(attempt: number, error: unknown, delayMs: number): void
  succeeded(info: ResponseInfo): void
  failed(error: unknown, attempts: number): void
}

/**
 * Named `<METHOD> <path template>` (e.g. `GET /api/team/members/{userId}/impersonation`): the
 * template, never the filled path, so ids do not multiply span names and no value leaks.
 */
export function requestSpan(
  ctx: { area: ServiceArea; instrumentation?: Instrumentation | undefined },
  spec: { method: string; path: string; template?: string | undefined },
): RequestSpan {
  // Untraced (the default): nothing allocated per call.
  if (!ctx.instrumentation) return UNTRACED
  const template = spec.template ?? spec.path
  const span = startSpan(ctx.instrumentation, `${spec.method} ${template}`, 'client', {
    'http.request.method': spec.method,
    'url.template': template,
    'service.area': ctx.area,
  })
  const headers: Record<string, string> = {}
  span.inject?.(headers)
  return {
    run: (call) => span.run(call),
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    retrying(attempt, error, delayMs) {
      span.addEvent('retry', {
        'service.attempt': attempt,
        'error.type': errorType(error),
        'http.response.status_code': statusOf(error),
        'retry.delay_ms': delayMs,
      })
    },
    succeeded(info) {
      finish(span, info.attempt, info.status, info.traceId)
      span.end()
    },
    failed(error, attempts) {
      const traceId = (error as { traceId?: unknown } | null)?.traceId
      finish(span, attempts, statusOf(error), typeof traceId === 'string' ? traceId : undefined)
      span.end(error)
    },
  }
}

const UNTRACED: RequestSpan = {
  run: (call) => call(),
  headers: undefined,
  retrying() {},
  succeeded() {},
  failed() {},
}

function finish(span: SpanHandle, attempts: number, status: number | undefined, traceId: string | undefined) {
  span.setAttributes({
    'http.response.status_code': status,
    'http.request.resend_count': attempts > 1 ? attempts - 1 : undefined,
    'service.trace_id': traceId,
  })
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}
