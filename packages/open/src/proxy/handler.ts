import type { Logger } from '@service-sdk/core'
import { createRedactor, redactingLogger } from '@service-sdk/core/internal'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { createOpenClient } from '../client.ts'
import { createCallerDirs } from './caller-dir.ts'
import { createProxyCredentials } from './credentials.ts'
import {
  listOrgs,
  operationOf,
  type ProxyContext,
  type ProxyOperation,
  saveMaterials,
  signObjectRequests,
} from './operations.ts'
import {
  checkProxyOptions,
  DEFAULT_CREDENTIAL_TTL_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SIGNED_URL_TTL_SECONDS,
  type UploadProxyCaller,
  type UploadProxyOptions,
} from './options.ts'
import { type OriginAllowed, originCheck, refuseForgery } from './request-guard.ts'
import { failure, upstreamFailure } from './responses.ts'

/** A Web-standard handler: mount it on any path prefix of Hono, Next.js, Express (through an adapter)... */
export type UploadProxy = (request: Request) => Promise<Response>

const OPERATIONS: Record<
  ProxyOperation,
  (ctx: ProxyContext, caller: UploadProxyCaller, request: Request) => Promise<Response>
> = {
  'org-info': listOrgs,
  'material-save': saveMaterials,
  'oss-sign': signObjectRequests,
}

/** The caller, or the 401/403 answer; the hook runs before anything reaches the service. */
async function authorize(
  options: UploadProxyOptions,
  logger: Logger,
  request: Request,
): Promise<UploadProxyCaller | Response> {
  let caller: UploadProxyCaller | false
  try {
    caller = await options.authorize(request)
  } catch (error) {
    logger.debug('upload proxy: authorize refused the request', {
      reason: error instanceof Error ? error.message : String(error),
    })
    return failure(403, 'forbidden', 'This user may not upload here.')
  }
  if (caller === false || caller === null || caller === undefined) {
    return failure(401, 'unauthorized', 'Sign in to upload: the upload proxy did not recognise this request.')
  }
  if (typeof caller.id !== 'string' || caller.id === '') {
    logger.error('upload proxy: authorize returned a caller without a string id', {})
    return failure(500, 'proxy_misconfigured', 'The upload proxy is misconfigured; see the server log.')
  }
  return caller
}

function corsOf(allowed: OriginAllowed, credentials: boolean) {
  return cors({
    origin: (requestOrigin) => (allowed(requestOrigin) ? requestOrigin : null),
    allowMethods: ['POST'],
    credentials,
    maxAge: 600,
  })
}

/**
 * The upload proxy: what a browser upload needs (`org-info`, `material-save` at the open API's
 * own paths, and `oss/sign`, under wherever it is mounted), for callers `authorize` lets through.
 * The server's token and STS credential stay here: a browser gets URLs signed for its own
 * objects, one request at a time. See the package README, "Upload proxy".
 */
export function createUploadProxy(options: UploadProxyOptions): UploadProxy {
  checkProxyOptions(options)
  const {
    authorize: _authorize,
    secret,
    allowedOrigins,
    allowCredentials,
    signedUrlTtlSeconds = DEFAULT_SIGNED_URL_TTL_SECONDS,
    credentialTtlMs = DEFAULT_CREDENTIAL_TTL_MS,
    maxBodyBytes,
    ...clientOptions
  } = options
  const open = createOpenClient(clientOptions)
  const credentials = createProxyCredentials(() => open.credentials(), credentialTtlMs)
  // createOpenClient has refused a missing token by now.
  const dirs = createCallerDirs(secret ?? (options.token.value as string))
  const ctx: ProxyContext = { open, credentials, dirs, signedUrlTtlSeconds }
  const logger = redactingLogger(options.logger, createRedactor([options.token.value, secret]))
  const allowed = originCheck(allowedOrigins)
  const app = new Hono()
  if (allowedOrigins !== undefined) app.use('*', corsOf(allowed, allowCredentials ?? false))
  app.post(
    '*',
    bodyLimit({
      maxSize: maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      onError: () =>
        failure(413, 'payload_too_large', 'The request body is larger than the upload proxy accepts.'),
    }),
    async (c) => {
      const operation = operationOf(new URL(c.req.url).pathname)
      if (!operation) return notFound()
      const forged = refuseForgery(c.req.raw, allowed)
      if (forged) return forged
      const caller = await authorize(options, logger, c.req.raw)
      if (caller instanceof Response) return caller
      try {
        return await OPERATIONS[operation](ctx, caller, c.req.raw)
      } catch (error) {
        return upstreamFailure(error, logger, operation)
      }
    },
  )
  app.all('*', (c) =>
    operationOf(new URL(c.req.url).pathname)
      ? failure(405, 'method_not_allowed', 'The upload proxy answers POST only.')
      : notFound(),
  )
  // A fault of the proxy itself (not of the service): 500, details in the server's log only.
  app.onError((error) => {
    logger.error('upload proxy: request failed', {
      error: error instanceof Error ? error.message : String(error),
    })
    return failure(500, 'proxy_error', 'The upload proxy failed; the server log says why.')
  })
  return async (request) => app.fetch(request)
}

const notFound = () =>
  failure(
    404,
    'not_found',
    'The upload proxy answers org-info, material-save and oss/sign only: it signs object requests and never hands out credentials (no sts-tmp).',
  )
