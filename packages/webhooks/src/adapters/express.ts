import type { RequestHandler } from 'express'
import type { WebhookReceiver } from '../receiver/receiver.ts'
import { assertReceiver } from './adapter-receiver.ts'
import { type FrameworkRequest, nodeDelivery } from './node-body.ts'

/**
 * Express (4 or 5) handler for the receiver's route; the token is the route's last segment:
 *
 *     app.post('/webhooks/:token', webhooksExpress(receiver))
 *
 * The body is read once from the request stream, counted against `maxBodyBytes` as it arrives.
 * A body parser mounted before it changes what there is to read:
 * - `express.raw({ type: 'application/json' })`: its Buffer is used as is.
 * - `express.json({ verify: keepRawBody })`: the bytes `verify` kept are used.
 * - `express.json()` alone: the stream is gone and the parsed object cannot be turned back into
 *   the bytes that were sent (large ids were rounded): a delivery with a valid token is answered
 *   500 (`body_consumed`, a message naming the parser) and nothing is stored, so the service
 *   retries it. Mount the handler before the parser, or give the parser `verify: keepRawBody`.
 *   (`express.json()` also applies its own `limit`, 100 kB by default, before the handler runs.)
 * Unexpected errors go to `next(error)`.
 */
export function webhooksExpress(receiver: WebhookReceiver): RequestHandler {
  assertReceiver('webhooksExpress', receiver)
  return (req, res, next) => {
    receiver.receive(nodeDelivery(req as FrameworkRequest)).then((receipt) => {
      if (res.headersSent) return
      res.status(receipt.status).set(receipt.headers).end(receipt.body)
    }, next)
  }
}

/**
 * The `verify` option of `express.json()` / `body-parser` that keeps the raw bytes on
 * `req.rawBody`, where {@link webhooksExpress} finds them when the parser ran first:
 *
 *     app.use(express.json({ verify: keepRawBody }))
 */
export function keepRawBody(req: object, _res: unknown, buffer: Buffer): void {
  ;(req as { rawBody?: Buffer }).rawBody = buffer
}
