import type { IncomingMessage, ServerResponse } from 'node:http'
import { ServiceValidationError } from '@service-sdk/core'
import { NOT_FOUND_HEADERS } from '../intake/receipt.ts'
import type { WebhookReceiver } from '../receiver/receiver.ts'
import { assertReceiver } from './adapter-receiver.ts'
import { type FrameworkRequest, nodeDelivery } from './node-body.ts'

export type NodeWebhookHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>

export interface NodeWebhookOptions {
  /**
   * The path the token follows: only `<path>/<token>` is served; other URLs are answered 404 (or
   * passed to `next()` in Express), even when their last segment is the token. Default: `/webhooks`
   * as a `node:http` listener; in Express (a `next` is passed) the route decides unless `path` is
   * given (then it is compared with the full `originalUrl`).
   */
  path?: string
}

/**
 * A `node:http` request listener that is also Express (and Connect) middleware:
 *
 *     http.createServer(webhooksNode(receiver))
 *     app.post('/webhooks/:token', webhooksNode(receiver))
 *
 * The body is read from the request stream. Mount it before any body parser (`express.json()`
 * would consume the stream and round large ids); `express.raw({ type: 'application/json' })`
 * before it is fine, its Buffer is used.
 */
export function webhooksNode(
  receiver: WebhookReceiver,
  options: NodeWebhookOptions = {},
): NodeWebhookHandler {
  assertReceiver('webhooksNode', receiver)
  const path = options.path === undefined ? undefined : normalizedPath(options.path)
  return async (req, res, next) => {
    try {
      const delivery = nodeDelivery(req as FrameworkRequest)
      const expected = path ?? (next ? undefined : '/webhooks')
      if (expected !== undefined && parentPath(delivery.url) !== expected) {
        if (next) next()
        else res.writeHead(404, NOT_FOUND_HEADERS).end('Not Found')
        return
      }
      const receipt = await receiver.receive(delivery)
      if (res.headersSent) return
      res.writeHead(receipt.status, receipt.headers)
      res.end(receipt.body)
    } catch (error) {
      if (next) next(error)
      else if (!res.headersSent) res.writeHead(500).end()
    }
  }
}

function normalizedPath(path: string): string {
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#]/.test(path))
    throw new ServiceValidationError('webhooksNode options', [
      { path: 'path', message: 'must start with / and hold no query (e.g. "/webhooks")' },
    ])
  return path.replace(/\/+$/, '')
}

/** The path without its last segment (the token), and without a trailing slash or query. */
function parentPath(url: string): string {
  const q = url.search(/[?#]/)
  const pathname = (q === -1 ? url : url.slice(0, q)).replace(/\/$/, '')
  return pathname.slice(0, pathname.lastIndexOf('/'))
}
