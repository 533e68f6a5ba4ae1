/** Query parameters in arrival order, names and values percent-decoded. */
export type QueryParams = ReadonlyArray<readonly [name: string, value: string]>

/**
 * Splits a query string without URLSearchParams' form rules: `+` stays a plus (ali-oss escapes
 * every `+` it means, and presigned signatures are base64), and `a` and `a=` both mean "a, empty".
 * Throws URIError on broken percent-encoding.
 */
export function parseQuery(search: string): QueryParams {
  const query = search.startsWith('?') ? search.slice(1) : search
  if (query === '') return []
  return query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = eq < 0 ? pair : pair.slice(0, eq)
      const value = eq < 0 ? '' : pair.slice(eq + 1)
      return [decodeURIComponent(name), decodeURIComponent(value)] as const
    })
}

export function queryValue(query: QueryParams, name: string): string | undefined {
  return query.find(([n]) => n === name)?.[1]
}

/** `<bucket>.oss-<region>.aliyuncs.com` (what ali-oss sends with an IP endpoint) or `<bucket>.localhost` (browsers). */
const BUCKET_HOST = /^([a-z0-9][a-z0-9-]{1,61}[a-z0-9])\.(?:oss-[a-z0-9-]+\.aliyuncs\.com|localhost)$/

/** The bucket a request is for: named by the Host, else the configured one (cname, IP, browsers). */
export function bucketFromHost(
  host: string | null | undefined,
  fallback: string | undefined,
): string | undefined {
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '')
  return BUCKET_HOST.exec(name)?.[1] ?? fallback
}

/** Path and query exactly as they came off the wire, when Node gives us the raw request line. */
export function splitTarget(target: string): { path: string; search: string } {
  const q = target.indexOf('?')
  return q < 0 ? { path: target, search: '' } : { path: target.slice(0, q), search: target.slice(q + 1) }
}

/**
 * A header value as the client meant it when signing. Node hands header bytes over one char per
 * byte (latin1); a client that sends UTF-8 text (ali-oss with `headerEncoding: 'latin1'`, meta in
 * Chinese) signs those bytes, so bytes that form valid UTF-8 are read as UTF-8 and then signed as
 * UTF-8 again: the signature covers exactly the bytes on the wire. Anything else is left as is.
 */
export function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value
  const decoded = Buffer.from(value, 'latin1').toString('utf8')
  return decoded.includes('\ufffd') ? value : decoded
}
