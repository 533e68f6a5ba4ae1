import type { Readable } from 'node:stream'
import type { FastifyPluginCallback } from 'fastify'
import type { Delivery } from '../intake/delivery.ts'
import type { WebhookReceiver } from '../receiver/receiver.ts'
import { assertReceiver } from './adapter-receiver.ts'

/** Options of {@link webhooksFastify}, besides Fastify's own (`prefix`). */
export interface FastifyWebhookOptions {
  /** The receiver from `createWebhookReceiver()`. */
  receiver: WebhookReceiver
}

/**
 * Fastify plugin serving `POST <prefix>/:token`:
 *
 *     app.register(webhooksFastify, { receiver, prefix: '/webhooks' })
 *
 * The plugin is encapsulated (not wrapped in `fastify-plugin`), so the content-type parser it
 * installs applies to its route only: that parser hands the request stream over unread, and the
 * receiver reads it once, counting bytes against `maxBodyBytes` (Fastify's `bodyLimit` does not
 * apply to it). The app's JSON parser and other routes are untouched.
 */
export const webhooksFastify: FastifyPluginCallback<FastifyWebhookOptions> = (app, options, done) => {
  const receiver = options?.receiver
  try {
    assertReceiver('webhooksFastify', receiver)
  } catch (error) {
    done(error as Error) // register() / ready() rejects with it, before listening
    return
  }
  app.removeAllContentTypeParsers()
  // Every content type: the receiver answers 415 itself to what is not JSON.
  app.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload))
  app.post<{ Params: { token: string } }>('/:token', async (request, reply) => {
    const delivery: Delivery = {
      method: request.method,
      url: request.url,
      contentType: request.headers['content-type'],
      contentLength: request.headers['content-length'],
      body: streamOf(request.body),
    }
    const receipt = await receiver.receive(delivery)
    return reply.code(receipt.status).headers(receipt.headers).send(receipt.body)
  })
  done()
}

/** The payload stream (the request, or what a `preParsing` hook made of it), read once. */
function streamOf(body: unknown): Delivery['body'] {
  if (body === undefined || body === null) return null
  // Leaving the loop early (too large) must not destroy the socket before the 413 is written.
  return (body as Readable).iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>
}
