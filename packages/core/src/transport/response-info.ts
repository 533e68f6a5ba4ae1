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
