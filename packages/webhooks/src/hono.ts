import type { MiddlewareHandler } from 'hono'
import type { WebhookReceiver } from './receiver.ts'

/**
 * Hono handler for the receiver's route; the token is the route's last segment:
 *
 *     app.post('/webhooks/:token', webhooksHono(receiver))
 */
export function webhooksHono(receiver: WebhookReceiver): MiddlewareHandler {
  return async (c) => {
    const request = c.req.raw
    if (!request.bodyUsed) return receiver.fetch(request)
    // An earlier middleware read the body through Hono, which keeps a copy: use it.
    const receipt = await receiver.receive({
      method: request.method,
      url: request.url,
      contentType: request.headers.get('content-type'),
      body: new Uint8Array(await c.req.arrayBuffer()),
    })
    return new Response(receipt.body, { status: receipt.status, headers: receipt.headers })
  }
}
