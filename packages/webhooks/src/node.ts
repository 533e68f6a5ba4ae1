import type { IncomingMessage, ServerResponse } from 'node:http'
import { type FrameworkRequest, nodeDelivery } from './node-body.ts'
import type { WebhookReceiver } from './receiver.ts'

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
      const receipt = await receiver.receive(nodeDelivery(req as FrameworkRequest))
      if (res.headersSent) return
      res.writeHead(receipt.status, receipt.headers)
      res.end(receipt.body)
    } catch (error) {
      if (next) next(error)
      else if (!res.headersSent) res.writeHead(500).end()
    }
  }
}
