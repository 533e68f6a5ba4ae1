/**
 * Browsers' multipart needs ETag readable, the request id helps support, and the CRC lets a
 * browser upload check the stored object against the bytes it read.
 */
export const EXPOSE_HEADERS = 'ETag, x-oss-request-id, x-oss-hash-crc64ecma'
export const ALLOW_METHODS = 'GET, PUT, POST, DELETE, HEAD'

/**
 * The CORS headers of every answer: the simulator behaves like a bucket whose CORS rule allows
 * any origin, method and header (what a browser-upload setup configures on real OSS).
 */
export function applyCors(request: Request, headers: Headers): void {
  const origin = request.headers.get('origin')
  if (origin) {
    headers.set('access-control-allow-origin', origin)
    headers.append('vary', 'Origin')
  }
  headers.set('access-control-expose-headers', EXPOSE_HEADERS)
}

/** The answer to an OPTIONS preflight: unsigned, as OSS answers it from the bucket's CORS rules. */
export function preflight(request: Request): { status: number; headers: Headers } | { refused: string } {
  const origin = request.headers.get('origin')
  const method = request.headers.get('access-control-request-method')
  if (!origin || !method)
    return { refused: 'Insufficient information. Origin and Access-Control-Request-Method are required.' }
  if (!ALLOW_METHODS.split(', ').includes(method.toUpperCase())) {
    return { refused: `CORSResponse: This CORS request is not allowed: method ${method} is not allowed.` }
  }
  const headers = new Headers({
    'access-control-allow-methods': ALLOW_METHODS,
    'access-control-max-age': '86400',
  })
  const requested = request.headers.get('access-control-request-headers')
  if (requested) headers.set('access-control-allow-headers', requested)
  return { status: 200, headers }
}
