import type { IncomingMessage } from 'node:http'
import { finished } from 'node:stream'
import { WebhookError } from '../errors.ts'
import { BodyBytes, tooLarge, type WholeBody } from '../intake/body.ts'
import type { Delivery } from '../intake/delivery.ts'

/** What Express and similar frameworks leave on the request. */
export type FrameworkRequest = IncomingMessage & { body?: unknown; rawBody?: unknown; originalUrl?: string }

/** Whether a value is a Node request stream (what @hono/node-server passes as `c.env.incoming`). */
export function isIncomingMessage(value: unknown): value is IncomingMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as IncomingMessage).iterator === 'function' &&
    typeof (value as IncomingMessage).headers === 'object'
  )
}

/** A Node request as a delivery: the stream is read directly, counted, and never buffered twice. */
export function nodeDelivery(req: FrameworkRequest): Delivery {
  return {
    method: req.method ?? 'GET',
    url: req.originalUrl ?? req.url ?? '/',
    contentType: req.headers['content-type'],
    contentLength: req.headers['content-length'],
    body: bodyOf(req),
  }
}

function bodyOf(req: FrameworkRequest): Delivery['body'] {
  // A raw body kept by the framework (express.raw, express.text, a rawBody property).
  if (Buffer.isBuffer(req.body) || typeof req.body === 'string') return req.body
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody
  if (req.readableDidRead || req.readableEnded) return consumed()
  const body: WholeBody = {
    // Leaving the loop early (too large) must not destroy the socket before the 413 is written.
    [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }),
    readWhole: (maxBytes) => readWhole(req, maxBytes),
  }
  return body
}

/**
 * The whole body through 'data' events and `finished` (the end, an error, or a premature close,
 * as `req.iterator()` reports them), stopping at the first chunk beyond `maxBytes`. Hand-written
 * rather than `for await` over `req.iterator()`: that costs a `read()` round and a promise per
 * chunk and at the end, on every delivery; this costs one promise.
 */
function readWhole(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const body = new BodyBytes(maxBytes, Number(req.headers['content-length']))
    let settled = false
    const settle = (error?: unknown) => {
      if (settled) return
      settled = true
      req.off('data', onData)
      stopWatching()
      if (error) reject(error)
      else resolve(body.whole())
    }
    const onData = (chunk: Buffer) => {
      if (body.add(chunk)) return
      // The rest stays unread, the socket open for the 413 (as the iterator left it).
      req.pause()
      settle(tooLarge(maxBytes))
    }
    const stopWatching = finished(req, { writable: false }, (error) => settle(error ?? undefined))
    req.on('data', onData)
  })
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
              { code: 'body_consumed', status: 500 },
            ),
          ),
      }
    },
  }
}
