import type { Middleware } from 'koa'
import type { WebhookReceiver } from '../receiver/receiver.ts'
import { assertReceiver } from './adapter-receiver.ts'
import { type FrameworkRequest, nodeDelivery } from './node-body.ts'

/**
 * Koa middleware for the receiver's route; the token is the last segment of the URL:
 *
 *     router.post('/webhooks/:token', webhooksKoa(receiver)) // @koa/router
 *
 * The body is read once from `ctx.req` (the Node request stream), counted against `maxBodyBytes`
 * as it arrives. When a body parser ran first, the raw text it keeps on `ctx.request.rawBody`
 * (`@koa/bodyparser`, `koa-bodyparser`) is used; without it, a consumed stream is answered 500
 * and nothing is stored (the service retries): mount the webhook route before the parser.
 */
export function webhooksKoa(receiver: WebhookReceiver): Middleware {
  assertReceiver('webhooksKoa', receiver)
  return async (ctx) => {
    const delivery = nodeDelivery(ctx.req as FrameworkRequest)
    delivery.url = ctx.originalUrl
    const rawBody = (ctx.request as { rawBody?: unknown }).rawBody
    if (typeof rawBody === 'string') delivery.body = rawBody
    // A sender that goes away mid-body makes Node destroy the socket with a parse error, which
    // Koa reports for the request in flight through `app.emit('error')` (a stack on stderr by
    // default). Marked `expose` (as Koa marks errors meant for the client), Koa's default
    // handler leaves it alone; the receiver logs the delivery as `request_aborted`, at debug.
    const socket = ctx.req.socket
    socket.prependListener('error', routine)
    try {
      const receipt = await receiver.receive(delivery)
      ctx.status = receipt.status
      ctx.set(receipt.headers)
      ctx.body = receipt.body
    } finally {
      socket.off('error', routine)
    }
  }
}

function routine(error: Error & { expose?: boolean }): void {
  error.expose = true
}
