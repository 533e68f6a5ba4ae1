import type { ServiceArea } from '../errors/errors.ts'
import type { Logger } from '../logging/logger.ts'
import type { Redactor } from '../logging/redact.ts'
import type { Instrumentation } from '../tracing/instrumentation.ts'
import type { RetryPolicy } from './retry.ts'

// What every attempt of a transport's requests runs with, and what a success tells. Apart from
// request.ts, so that the tracing of a request (tracing/request-span.ts) can name them without
// importing what it traces.

/** Time, injectable so retry tests run on a fake clock without waiting. */
export interface Clock {
  now(): number
  random(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** What one successful response told, besides its value: for support tickets, logs and metrics. */
export interface ResponseInfo {
  /** HTTP status of the response. */
  status: number
  /** The service's trace id for this request (every open-area answer carries one); undefined when absent. */
  traceId: string | undefined
  /** Response headers. */
  headers: Headers
  method: string
  /** The path template or path that was called, e.g. `/api/team/members`. */
  path: string
  /** 1 for the first attempt; higher when retries were needed. */
  attempt: number
  /** Time of the successful attempt, in ms. */
  durationMs: number
}

/** What the requests of one transport share: its area, budgets, retry policy, logger and redactor. */
export interface RequestContext {
  area: ServiceArea
  timeoutMs: number
  retry: RetryPolicy
  logger: Logger
  redact: Redactor
  clock: Clock
  instrumentation?: Instrumentation | undefined
}
