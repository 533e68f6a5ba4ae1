import type { IncomingMessage, ServerResponse } from 'node:http'
import { WebhookError } from './errors.ts'
import type { Delivery, WebhookReceiver } from './receiver.ts'

/** What Express and similar frameworks leave on the request. */
type FrameworkRequest = IncomingMessage & { body?: unknown; rawBody?: unknown; originalUrl?: string }

export type NodeWebhookHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>

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
export function webhooksNode(receiver: WebhookReceiver): NodeWebhookHandler {
  return async (req, res, next) => {
    try {
      const receipt = await receiver.receive({
        method: req.method ?? 'GET',
        url: (req as FrameworkRequest).originalUrl ?? req.url ?? '/',
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        body: bodyOf(req as FrameworkRequest),
      })
      if (res.headersSent) return
      res.writeHead(receipt.status, receipt.headers)
      res.end(receipt.body)
    } catch (error) {
      if (next) next(error)
      else if (!res.headersSent) res.writeHead(500).end()
    }
  }
}

function bodyOf(req: FrameworkRequest): Delivery['body'] {
  // A raw body kept by the framework (express.raw, express.text, a rawBody property).
  if (Buffer.isBuffer(req.body) || typeof req.body === 'string') return req.body
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody
  if (req.readableDidRead || req.readableEnded) return consumed()
  // Leaving the loop early (too large) must not destroy the socket before the 413 is written.
  return req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>
}

/** A body that fails when read (after the token check): the stream was consumed by a parser. */
function consumed(): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      return {
        next: () =>
          Promise.reject(
            new WebhookError(
              'The request body was already consumed (by a JSON body parser?). Mount webhooksNode() before body parsers, or use express.raw({ type: "application/json" }).',
              { code: 'invalid_options', status: 500 },
            ),
          ),
      }
    },
  }
}
