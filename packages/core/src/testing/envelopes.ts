import { stringifyJson } from '../json/json.ts'

/** A JSON response; `bigint` values are written as raw integers (for 19-digit ids). */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers)
  headers.set('content-type', 'application/json')
  return new Response(stringifyJson(body), { ...init, headers })
}

/** Team area success: `{success: true, data}`. */
export function teamSuccess(data: unknown, init: ResponseInit = {}): Response {
  return jsonResponse({ success: true, data }, init)
}

/** Team area failure: `{success: false, error}` with an HTTP status. */
export function teamFailure(status: number, error: string, init: ResponseInit = {}): Response {
  return jsonResponse({ success: false, error }, { ...init, status })
}

/** Open area success: `{code: "0", message: "success", result, traceId}`. */
export function openSuccess(result: unknown, options: { code?: unknown; traceId?: string } = {}): Response {
  return jsonResponse({
    code: options.code ?? '0',
    message: 'success',
    result,
    traceId: options.traceId ?? 'trace-test',
  })
}

/** Open area failure: HTTP 200 with a failure code, as the service reports it. */
export function openFailure(
  code: string,
  message: string,
  options: { traceId?: string; status?: number } = {},
): Response {
  return jsonResponse(
    { code, message, result: null, traceId: options.traceId ?? 'trace-test' },
    { status: options.status ?? 200 },
  )
}
