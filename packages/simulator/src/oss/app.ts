import { Hono } from 'hono'
import { authenticate, parseAuthorization } from './auth.ts'
import { discardBody, nodeIncoming, requestBody } from './body-source.ts'
import { applyCors, type OssCors, preflight } from './cors.ts'
import {
  LISTING_OPERATIONS,
  type OssCredential,
  type OssRequestContext,
  WRITE_OPERATIONS,
} from './credentials.ts'
import { newRequestId, type OssErrorCode, ossError, ossErrorFor } from './errors.ts'
import { identify, OPERATIONS, OperationError, partNumberOf } from './operations.ts'
import { bucketFromHost, parseQuery, type QueryParams, queryValue, splitTarget } from './request.ts'
import { type ObjectStore, ObjectStoreError } from './store.ts'

/** An early answer reads at most this much of an unwanted body before letting the connection go. */
const MAX_DISCARD = 64 * 1024 * 1024

export interface OssOptions {
  credentials: { get(accessKeyId: string): OssCredential | undefined }
  store: ObjectStore
  /** The clock of signature times (a request's date, a signed URL's expiry). Default `Date.now`. */
  now?: () => number
  /** The clock of credential lifetimes (the service's, which tests may move). Default `now`. */
  credentialNow?: () => number
  /** Default 'oss-cn-hangzhou' (ali-oss's default); V4 signatures must be scoped to it. */
  region?: string
  /** Bucket for requests whose Host does not name one (cname endpoints, browsers on an IP). */
  bucket?: string
  /**
   * Fault hook, called after the operation is identified and before it runs: return a Response to
   * answer with it instead, or tweaks to apply while it runs.
   */
  beforeRequest?: (
    ctx: OssRequestContext,
    request: Request,
  ) => Response | OssRequestTweaks | undefined | Promise<Response | OssRequestTweaks | undefined>
  /** The bucket's CORS rules, read on each request (they may change). Default `'open'`. */
  cors?: () => OssCors
  /** Where unexpected failures are reported (not client disconnects). Default: console.error. */
  log?: (message: string, error?: unknown) => void
}

/**
 * Node server options for the object storage's port. ali-oss streams a readable body with both
 * `Content-Length` and `Transfer-Encoding: chunked`; Node's strict parser refuses that with a
 * bare 400 and closes the connection before the app sees the request, while OSS accepts it
 * (chunked framing wins, as RFC 9112 says). The lenient parser accepts it; it is also more
 * tolerant of other malformed requests, which a local test server can afford.
 */
export const OSS_SERVER_OPTIONS = { insecureHTTPParser: true } as const

/** What a fault hook may change about how a request is handled. */
export interface OssRequestTweaks {
  /** PutObject, UploadPart: store the body's byte at this offset inverted (silent corruption). */
  corruptAt?: number
}

/**
 * The object storage as a Hono app, on its own origin as real OSS is. With an IP endpoint
 * ali-oss requests `http://127.0.0.1:PORT/<key>` with `Host: <bucket>.<region>.aliyuncs.com`;
 * with `cname` (or from a browser) the Host names no bucket and `options.bucket` applies.
 */
export function createOssApp(options: OssOptions): Hono {
  const handle = ossHandler(options)
  const app = new Hono()
  app.all('*', (c) => handle(c.req.raw, c.env))
  return app
}

type Fail = (code: OssErrorCode, message?: string, fields?: Record<string, string>) => Response

/** The same as a plain fetch handler; `env` may carry Node's request (`env.incoming`). */
function ossHandler(options: OssOptions): (request: Request, env?: unknown) => Promise<Response> {
  const now = options.now ?? Date.now
  const region = options.region ?? 'oss-cn-hangzhou'
  const signingRegion = region.replace(/^oss-/, '')
  const log = options.log ?? ((message, error) => console.error(`[oss] ${message}`, error ?? ''))
  const cors = options.cors ?? (() => 'open' as const)

  async function route(request: Request, env: unknown, requestId: string): Promise<Response> {
    const method = request.method.toUpperCase()
    const head = method === 'HEAD'
    const url = new URL(request.url)
    const bucket = bucketFromHost(request.headers.get('host') ?? url.host, options.bucket)
    const fail = (code: OssErrorCode, message?: string, fields: Record<string, string> = {}) =>
      ossErrorFor(code, {
        message,
        head,
        fields: {
          RequestId: requestId,
          HostId: bucket ? `${bucket}.${region}.aliyuncs.com` : `${region}.aliyuncs.com`,
          ...fields,
        },
      })

    if (method === 'OPTIONS') {
      const answer = preflight(request, cors())
      if ('refused' in answer) return fail('AccessForbidden', answer.refused)
      return new Response(null, answer)
    }

    // The raw request line when Node gives it: URL parsing would normalise `a/../b` in a key.
    const raw = nodeIncoming(env)?.url
    const { path, search } = raw?.startsWith('/')
      ? splitTarget(raw)
      : { path: url.pathname, search: url.search }
    let key: string
    let query: QueryParams
    try {
      key = decodeURIComponent(path.slice(1))
      query = parseQuery(search)
    } catch {
      return fail('InvalidURI')
    }
    if (!bucket)
      return fail('InvalidBucketName', 'The Host names no bucket and the simulator has no default bucket.')
    if (Buffer.byteLength(key) > 1023)
      return fail('InvalidObjectName', 'The object name must be at most 1023 bytes.')

    const identified = identify(method, key, query, request.headers)
    if ('code' in identified) return fail(identified.code, identified.message)
    const { op } = identified

    const signable = { method, bucket, key, query, headers: request.headers }
    const authorization = parseAuthorization(signable)
    const partNumber = op === 'UploadPart' ? partNumberOf(query) : undefined
    const uploadId = queryValue(query, 'uploadId')
    const ctx: OssRequestContext = {
      op,
      method,
      bucket,
      key,
      ...('accessKeyId' in authorization && authorization.accessKeyId
        ? { accessKeyId: authorization.accessKeyId }
        : {}),
      ...(partNumber !== undefined ? { partNumber } : {}),
      ...(uploadId !== undefined && op !== 'PutObject' && op !== 'GetObject' ? { uploadId } : {}),
    }
    // Before authentication, so a hook that expires the credential makes this very request fail.
    const injected = await options.beforeRequest?.(ctx, request)
    if (injected instanceof Response) return injected

    const auth = {
      credentials: options.credentials,
      now: now(),
      credentialNow: (options.credentialNow ?? now)(),
      region: signingRegion,
    }
    const run = (dir: string) =>
      OPERATIONS[op]({
        store: options.store,
        bucket,
        key,
        query,
        headers: request.headers,
        body: () => requestBody(request, env),
        origin: `${url.protocol}//${request.headers.get('host') ?? url.host}`,
        dir,
        corruptAt: injected?.corruptAt,
        auth,
      })
    // A form upload is signed in its body: the operation checks it.
    if (op === 'PostObject') return answer(run(''), fail)
    const result = authenticate(signable, authorization, auth)
    if ('failure' in result) return fail(result.failure.code, result.failure.message, result.failure.fields)
    const { credential } = result
    if (credential.bucket !== bucket)
      return fail('AccessDenied', 'The bucket you access does not belong to you.')
    if (WRITE_OPERATIONS.has(op) && !key.startsWith(credential.dir)) {
      return fail(
        'AccessDenied',
        `Access denied by authorizer's policy: writes are allowed under ${credential.dir} only.`,
      )
    }
    if (LISTING_OPERATIONS.has(op) && !(queryValue(query, 'prefix') ?? '').startsWith(credential.dir)) {
      return fail(
        'AccessDenied',
        `Access denied by authorizer's policy: listings must name a prefix under ${credential.dir}.`,
      )
    }

    return answer(run(credential.dir), fail)
  }

  /** An operation's answer, or its OSS error. */
  async function answer(running: Promise<Response>, fail: Fail): Promise<Response> {
    try {
      return await running
    } catch (error) {
      if (error instanceof ObjectStoreError || error instanceof OperationError) {
        const answer = fail(error.code, error.message === error.code ? undefined : error.message, {
          ...error.fields,
        })
        if (error instanceof OperationError)
          for (const [name, value] of Object.entries(error.headers)) answer.headers.set(name, value)
        return answer
      }
      throw error
    }
  }

  return async (request, env) => {
    const requestId = newRequestId()
    let response: Response
    try {
      response = await route(request, env, requestId)
    } catch (error) {
      if (!clientGone(error)) log(`${request.method} ${request.url} failed`, error)
      response = ossError(
        500,
        'InternalError',
        'We encountered an internal error. Please try again.',
        request.method === 'HEAD',
        {
          RequestId: requestId,
        },
      )
    }
    if (response.status >= 300) await discardBody(request, env, MAX_DISCARD)
    return finish(request, response, requestId, cors())
  }
}

/** Every answer, the hook's included: a request id, the server name, CORS. */
function finish(request: Request, response: Response, requestId: string, cors: OssCors): Response {
  const decorate = (headers: Headers) => {
    if (!headers.has('x-oss-request-id')) headers.set('x-oss-request-id', requestId)
    headers.set('server', 'AliyunOSS')
    applyCors(request, headers, cors)
  }
  try {
    decorate(response.headers)
    return response
  } catch {
    // Immutable headers (a Response from fetch): copy it.
    const copy = new Response(response.body, response)
    decorate(copy.headers)
    return copy
  }
}

/** The client hung up mid-body: not the simulator's failure. */
function clientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNABORTED' ||
    (error instanceof Error && error.message === 'aborted')
  )
}
