/**
 * A CORS rule of the bucket, as OSS's PutBucketCors takes one (`CORSRule`). Origins and headers
 * may hold `*` wildcards (`https://*.example.com`; `*` alone for any).
 */
export interface OssCorsRule {
  /** `AllowedOrigin`: the page origins the rule is for. */
  allowedOrigins: string[]
  /** `AllowedMethod`: `GET`, `PUT`, `POST`, `DELETE`, `HEAD`. */
  allowedMethods: string[]
  /** `AllowedHeader`: the request headers a preflight may ask for (case-insensitive). Default none. */
  allowedHeaders?: string[]
  /** `ExposeHeader`: the answer headers a page may read. Default none. */
  exposeHeaders?: string[]
  /** `MaxAgeSeconds`: how long a browser may cache a preflight's answer. */
  maxAgeSeconds?: number
}

/**
 * The bucket's CORS configuration: `'open'` (the rule a browser-upload setup configures, below),
 * `'none'` (no rule: preflights are refused and no answer carries an `Access-Control-*` header),
 * or the bucket's rules, the first matching one applying.
 */
export type OssCors = 'open' | 'none' | OssCorsRule[]

/**
 * Browsers' multipart needs ETag readable, the request id helps support, and the CRC lets a
 * browser upload check the stored object against the bytes it read.
 */
const EXPOSE_HEADERS = ['ETag', 'x-oss-request-id', 'x-oss-hash-crc64ecma']
const ALLOW_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD']

/** The `'open'` configuration: any origin, method and header; the headers above exposed. */
const OPEN_RULE: OssCorsRule = {
  allowedOrigins: ['*'],
  allowedMethods: ALLOW_METHODS,
  allowedHeaders: ['*'],
  exposeHeaders: EXPOSE_HEADERS,
  maxAgeSeconds: 86400,
}

const rulesOf = (cors: OssCors): OssCorsRule[] =>
  cors === 'open' ? [OPEN_RULE] : cors === 'none' ? [] : cors

/** `value` matches `pattern`, whose `*`s stand for any run of characters. */
function matches(pattern: string, value: string, ignoreCase: boolean): boolean {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${escaped.join('.*')}$`, ignoreCase ? 'i' : '').test(value)
}

function ruleFor(
  cors: OssCors,
  origin: string,
  method: string,
  requestedHeaders: string[] = [],
): OssCorsRule | undefined {
  return rulesOf(cors).find(
    (rule) =>
      rule.allowedOrigins.some((o) => matches(o, origin, false)) &&
      rule.allowedMethods.some((m) => m.toUpperCase() === method.toUpperCase()) &&
      requestedHeaders.every((h) => (rule.allowedHeaders ?? []).some((a) => matches(a, h, true))),
  )
}

/**
 * The CORS headers of an ordinary answer (not a preflight's): when the request's `Origin` and
 * method match a rule, the origin is allowed and the rule's headers exposed; otherwise none.
 */
export function applyCors(request: Request, headers: Headers, cors: OssCors): void {
  const origin = request.headers.get('origin')
  if (!origin || request.method.toUpperCase() === 'OPTIONS') return
  const rule = ruleFor(cors, origin, request.method)
  if (!rule) return
  headers.set('access-control-allow-origin', origin)
  headers.append('vary', 'Origin')
  if (rule.exposeHeaders?.length) headers.set('access-control-expose-headers', rule.exposeHeaders.join(', '))
}

/**
 * The answer to an OPTIONS preflight: unsigned, as OSS answers it from the bucket's CORS rules,
 * or the reason it is refused (`403 AccessForbidden`, without any `Access-Control-*` header).
 */
export function preflight(
  request: Request,
  cors: OssCors,
): { status: number; headers: Headers } | { refused: string } {
  const origin = request.headers.get('origin')
  const method = request.headers.get('access-control-request-method')
  if (!origin || !method)
    return { refused: 'Insufficient information. Origin and Access-Control-Request-Method are required.' }
  if (rulesOf(cors).length === 0) return { refused: 'CORSResponse: CORS is not enabled for this bucket.' }
  const requested = request.headers.get('access-control-request-headers')
  const names = (requested ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  const rule = ruleFor(cors, origin, method, names)
  if (!rule)
    return {
      refused: `CORSResponse: This CORS request is not allowed: no CORS rule of the bucket allows origin ${origin}, method ${method}${names.length ? ` and headers ${names.join(', ')}` : ''}.`,
    }
  const headers = new Headers({
    'access-control-allow-origin': origin,
    'access-control-allow-methods': rule.allowedMethods.join(', '),
    vary: 'Origin',
  })
  if (requested) headers.set('access-control-allow-headers', requested)
  if (rule.exposeHeaders?.length) headers.set('access-control-expose-headers', rule.exposeHeaders.join(', '))
  if (rule.maxAgeSeconds !== undefined) headers.set('access-control-max-age', String(rule.maxAgeSeconds))
  return { status: 200, headers }
}
