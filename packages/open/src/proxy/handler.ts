import type { Logger } from '@service-sdk/core'
import { createRedactor, redactingLogger } from '@service-sdk/core/internal'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { createOpenClient } from '../client.ts'
import { createCallerDirs } from './caller-dir.ts'
import {
  issueCredential,
  listOrgs,
  operationOf,
  type ProxyContext,
  type ProxyOperation,
  saveMaterials,
} from './operations.ts'
import {
  checkProxyOptions,
  DEFAULT_MAX_BODY_BYTES,
  type UploadProxyCaller,
  type UploadProxyCors,
  type UploadProxyOptions,
} from './options.ts'
import { failure, upstreamFailure } from './responses.ts'

/** A Web-standard handler: mount it on any path prefix of Hono, Next.js, Express (through an adapter)... */
export type UploadProxy = (request: Request) => Promise<Response>

const OPERATIONS: Record<
  ProxyOperation,
  (ctx: ProxyContext, caller: UploadProxyCaller, request: Request) => Promise<Response>
> = {
  'sts-tmp': issueCredential,
  'org-info': listOrgs,
  'material-save': saveMaterials,
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

function corsOf(options: UploadProxyCors) {
  const { origin } = options
  return cors({
    origin:
      typeof origin === 'function'
        ? (requestOrigin) => (origin(requestOrigin) ? requestOrigin : null)
        : typeof origin === 'string'
          ? origin
          : [...origin],
    allowMethods: ['POST'],
    credentials: options.credentials ?? false,
    maxAge: 600,
  })
}

/**
 * The upload proxy: the three calls a browser upload makes (`sts-tmp`, `org-info`,
 * `material-save`, at the open API's own paths under wherever it is mounted), made with the
 * server's token for callers `authorize` lets through. See the package README, "Upload proxy".
 */
export function createUploadProxy(options: UploadProxyOptions): UploadProxy {
  checkProxyOptions(options)
  const { authorize: _authorize, secret, cors: corsOptions, maxBodyBytes, ...clientOptions } = options
  const open = createOpenClient(clientOptions)
  const ctx: ProxyContext = { open, dirs: createCallerDirs(secret ?? options.token.value) }
  const logger = redactingLogger(options.logger, createRedactor([options.token.value, secret]))
  const app = new Hono()
  if (corsOptions) app.use('*', corsOf(corsOptions))
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
  failure(404, 'not_found', 'The upload proxy answers sts-tmp, org-info and material-save only.')
