import type { OssHttp, OssHttpRequest, OssHttpResponse } from '../oss-adapter.ts'
import { partNumberOf } from '../platform.ts'

// Headers a page may not set (the browser sets or refuses them); ali-oss adds some (Host for IP endpoints).
const FORBIDDEN =
  /^(accept-charset|accept-encoding|access-control-request-.*|connection|content-length|cookie2?|date|dnt|expect|host|keep-alive|origin|referer|te|trailer|transfer-encoding|upgrade|user-agent|via|proxy-.*|sec-.*)$/i

/**
 * ali-oss's HTTP layer on XMLHttpRequest, shared by a client's uploads; each request follows its
 * upload's context (`params.ctx`). XHR is what reports upload progress
 * (fetch does not), a Blob body is sent from disk without being read into memory, `signal`
 * cuts the upload's object-byte requests, and `timeoutMs` is an idle timeout reset by each progress event.
 */
export function createXhrHttp(): OssHttp {
  return {
    request(url: string, params: OssHttpRequest): Promise<OssHttpResponse> {
      const options = params.ctx
      return new Promise((resolve, reject) => {
        const started = Date.now()
        const xhr = new XMLHttpRequest()
        let settled = false
        let idle: ReturnType<typeof setTimeout> | undefined
        const settle = () => {
          settled = true
          clearTimeout(idle)
          options.signal.removeEventListener('abort', onAbort)
        }
        const fail = (name: string, status: -1 | -2, message: string) => {
          if (settled) return
          settle()
          reject(Object.assign(new Error(message), { name, status }))
          xhr.abort()
        }
        const arm = () => {
          clearTimeout(idle)
          idle = setTimeout(
            () => fail('ConnectionTimeoutError', -2, `no progress for ${options.timeoutMs} ms`),
            options.timeoutMs,
          )
        }
        const onAbort = () => fail('AbortError', -1, 'aborted')
        // Only object bytes (PUT) are cut by an abort: see HttpOptions.signal.
        if (params.method === 'PUT') {
          if (options.signal.aborted) return onAbort()
          options.signal.addEventListener('abort', onAbort, { once: true })
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
            arm()
            const bytes = event.loaded - sent
            sent = event.loaded
            if (bytes > 0) options.onBodyBytes(part, bytes)
          }
        }
        xhr.onprogress = arm
        xhr.onerror = () =>
          fail('ConnectionError', -1, 'the request failed (network error, or refused by CORS)')
        xhr.onload = () => {
          if (settled) return
          settle()
          const headers = parseHeaders(xhr.getAllResponseHeaders())
          const data = xhr.responseText
          resolve({
            status: xhr.status,
            headers,
            data,
            res: {
              status: xhr.status,
              statusCode: xhr.status,
              headers,
              size: data.length,
              rt: Date.now() - started,
              requestUrls: [url],
            },
          })
        }
        arm()
        xhr.send((params.content as XMLHttpRequestBodyInit | undefined) ?? null)
      })
    },
  }
}

function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}
