import type { ResponseInfo } from './context.ts'
import type { CallOptions } from './transport.ts'

/** A call's plain result, with what its response(s) told. */
export interface WithResponse<T> {
  /** Exactly what the call returns on its own. */
  data: T
  /** The last successful response of the call; undefined only when the call sent no request. */
  response: ResponseInfo | undefined
  /** Every successful response, in order (one per request: a long material save sends several). */
  responses: ResponseInfo[]
}

/**
 * Runs one client call and returns its result together with its response metadata (status,
 * traceId, headers), leaving the result itself untouched:
 *
 *     const { data: members, response } = await withResponse((call) => team.members.list(call))
 *     log.info('listed', { traceId: response?.traceId })
 *
 * `options` are passed on to the call (signal, timeoutMs, onResponse).
 */
export async function withResponse<T>(
  run: (call: CallOptions) => Promise<T>,
  options: CallOptions = {},
): Promise<WithResponse<T>> {
  const responses: ResponseInfo[] = []
  const data = await run({
    ...options,
    onResponse: (info) => {
      responses.push(info)
      options.onResponse?.(info)
    },
  })
  return { data, response: responses.at(-1), responses }
}
