import { NoAnswerError } from '../oss/no-answer.ts'
import type { OssHttp, OssHttpRequest, OssHttpResponse } from '../oss/types.ts'
import { partNumberOf } from '../platform/platform.ts'

// Headers a page may not set (the browser sets or refuses them); the signer adds some (Host for IP endpoints).
const FORBIDDEN =
  /^(accept-charset|accept-encoding|access-control-request-.*|connection|content-length|cookie2?|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|user-agent|via|proxy-.*|sec-.*)$/i

/**
 * The HTTP layer of browser uploads on XMLHttpRequest, shared by a client's uploads; each request follows its
 * upload's context (`params.ctx`). XHR is what reports upload progress (fetch does not), a Blob
 * body is sent from disk without being read into memory, `signal` cuts the upload's object-byte
 * requests, and `timeoutMs` is an idle timeout reset by each progress event.
 */
export function createXhrHttp(): OssHttp {
  return {
    request: (url, params) =>
      new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest()
        const pending: Pending = {
          url,
          xhr,
          params,
          started: Date.now(),
          settled: false,
          idle: undefined,
          onAbort: () => fail(pending, new NoAnswerError('aborted', 'aborted')),
          resolve,
          reject,
        }
        send(pending)
      }),
  }
}

/** One request's state, settled once. */
interface Pending {
  url: string
  xhr: XMLHttpRequest
  params: OssHttpRequest
  started: number
  settled: boolean
  idle: ReturnType<typeof setTimeout> | undefined
  /** The listener on the upload's signal (PUT only), removed once settled. */
  onAbort: () => void
  resolve(response: OssHttpResponse): void
  reject(error: unknown): void
}

function settle(pending: Pending): void {
  pending.settled = true
  clearTimeout(pending.idle)
  // Only a PUT listens (a control request's signal may be a deep copy: see OssHttpRequest.ctx).
  if (pending.params.method === 'PUT') pending.params.ctx.signal.removeEventListener('abort', pending.onAbort)
}

/** Rejects as "no answer" (see `NoAnswerError`). */
function fail(pending: Pending, error: NoAnswerError): void {
  if (pending.settled) return
  settle(pending)
  pending.reject(error)
  pending.xhr.abort()
}

/** (Re)starts the idle timeout. */
function arm(pending: Pending): void {
  const { timeoutMs } = pending.params.ctx
  clearTimeout(pending.idle)
  pending.idle = setTimeout(
    () => fail(pending, new NoAnswerError('timeout', `no progress for ${timeoutMs} ms`)),
    timeoutMs,
  )
}

function send(pending: Pending): void {
  const { xhr, params, url } = pending
  const { signal, onBodyBytes } = params.ctx
  // Only object bytes (PUT) are cut by an abort: see RequestContext.signal.
  if (params.method === 'PUT') {
    if (signal.aborted) {
      fail(pending, new NoAnswerError('aborted', 'aborted'))
      return
    }
    signal.addEventListener('abort', pending.onAbort, { once: true })
  }
  xhr.open(params.method, url)
  for (const [name, value] of Object.entries(params.headers)) {
    if (!FORBIDDEN.test(name)) xhr.setRequestHeader(name, String(value))
  }
  // Only PUT bodies are object bytes (PutObject, UploadPart).
  if (params.method === 'PUT') {
    const part = partNumberOf(new URL(url))
    let sent = 0
    xhr.upload.onprogress = (event) => {
      arm(pending)
      const bytes = event.loaded - sent
      sent = event.loaded
      if (bytes > 0) onBodyBytes(part, bytes)
    }
  }
  xhr.onprogress = () => arm(pending)
  xhr.onerror = () =>
    fail(
      pending,
      new NoAnswerError('connection_error', 'the request failed (network error, or refused by CORS)'),
    )
  xhr.onload = () => answer(pending)
  arm(pending)
  xhr.send((params.content as XMLHttpRequestBodyInit | undefined) ?? null)
}

function answer(pending: Pending): void {
  if (pending.settled) return
  settle(pending)
  const { xhr } = pending
  const headers = parseHeaders(xhr.getAllResponseHeaders())
  pending.resolve({ status: xhr.status, headers, data: xhr.responseText })
}

function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}
