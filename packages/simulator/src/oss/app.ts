import type { Logger } from '@service-sdk/core'
import { Hono } from 'hono'
import { simulatorLogger } from '../host/logger.ts'
import { identify, OPERATIONS, OperationError, partNumberOf } from './operations/operations.ts'
import { authenticate, parseAuthorization } from './protocol/auth.ts'
import { discardBody, nodeIncoming, requestBody } from './protocol/body-source.ts'
import { applyCors, type OssCors, preflight } from './protocol/cors.ts'
import {
  LISTING_OPERATIONS,
  type OssCredential,
  type OssOperation,
  type OssRequestContext,
  WRITE_OPERATIONS,
} from './protocol/credentials.ts'
import { newRequestId, type OssErrorCode, ossError, ossErrorFor } from './protocol/errors.ts'
import { bucketFromHost, parseQuery, type QueryParams, queryValue, splitTarget } from './protocol/request.ts'
import { type ObjectStore, ObjectStoreError } from './store/store.ts'

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
  /** Where unexpected failures are reported (not client disconnects). Default: stderr. */
  logger?: Partial<Logger>
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
  const router = new OssRouter(options)
  return (request, env) => router.handle(request, env)
}

/** Where a request goes: its bucket, its key (as sent, not normalised) and its query. */
interface Target {
  bucket: string
  key: string
  query: QueryParams
}

/** One request at a time: its target, the operation, the fault hook, authentication, the answer. */
class OssRouter {
  readonly #options: OssOptions
  readonly #now: () => number
  readonly #region: string
  readonly #logger: Logger
  readonly #cors: () => OssCors

  constructor(options: OssOptions) {
    this.#options = options
    this.#now = options.now ?? Date.now
    this.#region = options.region ?? 'oss-cn-hangzhou'
    this.#logger = simulatorLogger(options.logger, 'oss')
    this.#cors = options.cors ?? (() => 'open' as const)
  }

  async handle(request: Request, env: unknown): Promise<Response> {
    const requestId = newRequestId()
    let response: Response
    try {
      response = await this.#route(request, env, requestId)
    } catch (error) {
      if (!clientGone(error)) this.#logger.error(`${request.method} ${request.url} failed`, { error })
      const message = 'We encountered an internal error. Please try again.'
      response = ossError(500, 'InternalError', message, request.method === 'HEAD', { RequestId: requestId })
    }
    if (response.status >= 300) await discardBody(request, env, MAX_DISCARD)
    return finish(request, response, requestId, this.#cors())
  }

  /** The OSS error answer of this request (its request id and host id in the body). */
  #failer(head: boolean, bucket: string | undefined, requestId: string): Fail {
    const region = this.#region
    return (code, message, fields = {}) =>
      ossErrorFor(code, {
        message,
        head,
        fields: {
          RequestId: requestId,
          HostId: bucket ? `${bucket}.${region}.aliyuncs.com` : `${region}.aliyuncs.com`,
          ...fields,
        },
      })
  }

  /** The bucket, key and query, or the error that refuses them. */
  #target(request: Request, env: unknown, fail: Fail): Target | Response {
    const url = new URL(request.url)
    const bucket = bucketFromHost(request.headers.get('host') ?? url.host, this.#options.bucket)
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
    return { bucket, key, query }
  }

  async #route(request: Request, env: unknown, requestId: string): Promise<Response> {
    const method = request.method.toUpperCase()
    const url = new URL(request.url)
    const fail = this.#failer(
      method === 'HEAD',
      bucketFromHost(request.headers.get('host') ?? url.host, this.#options.bucket),
      requestId,
    )
    if (method === 'OPTIONS') {
      const answer = preflight(request, this.#cors())
      return 'refused' in answer ? fail('AccessForbidden', answer.refused) : new Response(null, answer)
    }
    const target = this.#target(request, env, fail)
    if (target instanceof Response) return target
    const { bucket, key, query } = target
    const identified = identify(method, key, query, request.headers)
    if ('code' in identified) return fail(identified.code, identified.message)
    const { op } = identified
    const signable = { method, bucket, key, query, headers: request.headers }
    const authorization = parseAuthorization(signable)
    // Before authentication, so a hook that expires the credential makes this very request fail.
    const injected = await this.#options.beforeRequest?.(
      contextOf(op, method, target, authorization),
      request,
    )
    if (injected instanceof Response) return injected
    const auth = {
      credentials: this.#options.credentials,
      now: this.#now(),
      credentialNow: (this.#options.credentialNow ?? this.#now)(),
      region: this.#region.replace(/^oss-/, ''),
    }
    const run = (dir: string) =>
      OPERATIONS[op]({
        store: this.#options.store,
        ...target,
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
    const refused = scopeRefusal(result.credential, op, target, fail)
    return refused ?? answer(run(result.credential.dir), fail)
  }
}

/** What the fault hook is told of a request. */
function contextOf(
  op: OssOperation,
  method: string,
  target: Target,
  authorization: ReturnType<typeof parseAuthorization>,
): OssRequestContext {
  const partNumber = op === 'UploadPart' ? partNumberOf(target.query) : undefined
  const uploadId = queryValue(target.query, 'uploadId')
  return {
    op,
    method,
    bucket: target.bucket,
    key: target.key,
    ...('accessKeyId' in authorization && authorization.accessKeyId
      ? { accessKeyId: authorization.accessKeyId }
      : {}),
    ...(partNumber !== undefined ? { partNumber } : {}),
    ...(uploadId !== undefined && op !== 'PutObject' && op !== 'GetObject' ? { uploadId } : {}),
  }
}

/** The credential's scope: its bucket, writes under its `dir`, listings of a prefix under it. */
function scopeRefusal(
  credential: OssCredential,
  op: OssOperation,
  target: Target,
  fail: Fail,
): Response | undefined {
  const { dir } = credential
  if (credential.bucket !== target.bucket)
    return fail('AccessDenied', 'The bucket you access does not belong to you.')
  if (WRITE_OPERATIONS.has(op) && !target.key.startsWith(dir))
    return fail('AccessDenied', `Access denied by authorizer's policy: writes are allowed under ${dir} only.`)
  if (LISTING_OPERATIONS.has(op) && !(queryValue(target.query, 'prefix') ?? '').startsWith(dir))
    return fail(
      'AccessDenied',
      `Access denied by authorizer's policy: listings must name a prefix under ${dir}.`,
    )
  return undefined
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
