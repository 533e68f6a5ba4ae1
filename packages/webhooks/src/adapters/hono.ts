import type { MiddlewareHandler } from 'hono'
import type { Delivery } from '../intake/delivery.ts'
import type { WebhookReceiver } from '../receiver/receiver.ts'
import { assertReceiver } from './adapter-receiver.ts'
import { isIncomingMessage, nodeDelivery } from './node-body.ts'

/**
 * Hono handler for the receiver's route; the token is the route's last segment:
 *
 *     app.post('/webhooks/:token', webhooksHono(receiver))
 */
export function webhooksHono(receiver: WebhookReceiver): MiddlewareHandler {
  assertReceiver('webhooksHono', receiver)
  return async (c) => {
    const request = c.req.raw
    let delivery: Delivery
    const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming
    if (!request.bodyUsed && isIncomingMessage(incoming)) {
      // On @hono/node-server, read the Node stream itself: building a web ReadableStream and a
      // full Request for it costs more than storing the event.
      delivery = nodeDelivery(incoming)
    } else if (request.bodyUsed) {
      // An earlier middleware read the body through Hono, which keeps a copy: use it.
      delivery = {
        method: request.method,
        url: request.url,
        contentType: request.headers.get('content-type'),
        body: new Uint8Array(await c.req.arrayBuffer()),
      }
    } else {
      return receiver.fetch(request)
    }
    const receipt = await receiver.receive(delivery)
    return new Response(receipt.body, { status: receipt.status, headers: receipt.headers })
  }
}
