import type { ServiceArea } from '../errors/errors.ts'
import { parseServiceJson } from '../json/service-json.ts'
import { crossOrigin, likelyCors } from '../origin/cross-origin.ts'
import type { RequestContext, ResponseInfo } from './context.ts'
import { unwrapOpenResponse, unwrapTeamResponse } from './envelope.ts'
import { execute, type RawResponse } from './request.ts'

/** Methods whose repeat has the effect of one request: retried on any transient failure. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

/** A response as the service sent it, whose `json()` parses with the lossless codec (ids as strings). */
class LosslessResponse extends Response {
  override async json(): Promise<unknown> {
    return parseServiceJson(await this.text())
  }
}

/** What a raw request shares with its transport's wrapped calls (a `TransportState` is one). */
export interface RawSendState {
  init: { area: ServiceArea; onResponse?: ((info: ResponseInfo) => void) | undefined }
  ctx: RequestContext
  headers: Readonly<Record<string, string>>
  fetch: typeof globalThis.fetch
}

/**
 * One request of the `raw` client (openapi-fetch) through a transport: its authorization (which
 * replaces any the request carries), User-Agent, per-attempt timeout, retries (a POST or PATCH
 * only when provably never acted on, as a create), tracing and `onResponse` hooks. The envelope
 * is read as the wrapped calls read it, so a failure (an HTTP error, or an open-area code in a 200
 * answer) is thrown as its typed error; a success is returned whole, envelope included.
 */
export async function sendRaw(state: RawSendState, request: Request, template?: string): Promise<Response> {
  const url = request.url
  const { pathname: path } = new URL(url)
  const { method } = request
  const headers = new Headers(request.headers)
  for (const [name, value] of Object.entries(state.headers)) headers.set(name, value)
  // Read once: every attempt sends the same bytes.
  const body = request.body === null ? null : await request.text()
  const where = { area: state.init.area, method, path, redact: state.ctx.redact }
  // openapi-fetch puts a call's own options on its Request: `idempotent`, `timeoutMs`.
  const own = request as Request & { idempotent?: unknown; timeoutMs?: unknown }
  const answer = await execute<RawResponse>(state.ctx, {
    method,
    path,
    template: template ?? path,
    idempotent: own.idempotent === true || IDEMPOTENT.has(method),
    timeoutMs: typeof own.timeoutMs === 'number' ? own.timeoutMs : undefined,
    signal: request.signal,
    async send(signal, traceHeaders) {
      const sent = new Headers(headers)
      if (traceHeaders && !crossOrigin(url)) for (const [k, v] of Object.entries(traceHeaders)) sent.set(k, v)
      const response = await state
        .fetch(url, { method, headers: sent, body, signal })
        .catch((error: unknown) => {
          throw likelyCors(error, url, { method, path }) ?? error
        })
      return { status: response.status, headers: response.headers, text: await response.text() }
    },
    unwrap(response) {
      const { traceId } =
        where.area === 'team'
          ? unwrapTeamResponse(response, where)
          : unwrapOpenResponse(response, where, { allowBare: true })
      return { value: response, traceId }
    },
    onResponse: state.init.onResponse,
  })
  return losslessResponse(answer)
}

function losslessResponse({ status, headers, text }: RawResponse): Response {
  const sent = new Headers(headers)
  // The body is already decoded, and its length is the text's (openapi-fetch reads `json()` only
  // when a Content-Length is there; without one it would `JSON.parse` the text and round the ids).
  sent.delete('content-encoding')
  sent.set('content-length', String(new TextEncoder().encode(text).byteLength))
  const empty = status === 204 || status === 205 || status === 304
  return new LosslessResponse(empty ? null : text, { status, headers: sent })
}
