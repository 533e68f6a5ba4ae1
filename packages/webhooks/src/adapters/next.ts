import type { WebhookReceiver } from '../receiver/receiver.ts'
import { assertReceiver } from './adapter-receiver.ts'

/** What `app/webhooks/[token]/route.ts` exports. */
export interface NextWebhookRoute {
  /** Receives a delivery: stores it and answers 200, or refuses it (404, 413, 415, 400, 503). */
  POST(request: Request): Promise<Response>
}

/**
 * Next.js App Router route handler; put it at `app/webhooks/[token]/route.ts`:
 *
 *     export const runtime = 'nodejs' // the SQLite and PostgreSQL stores need Node
 *     export const { POST } = webhooksNext(() => getReceiver())
 *
 * Pass a function when the receiver opens a store: `next build` evaluates route modules, and the
 * function is only called on the first delivery (then its result is kept). The Web `Request`
 * body is read once, counted against `maxBodyBytes` as it streams in. Other methods get Next's 405.
 */
export function webhooksNext(
  receiver: WebhookReceiver | (() => WebhookReceiver | Promise<WebhookReceiver>),
): NextWebhookRoute {
  if (typeof receiver !== 'function') assertReceiver('webhooksNext', receiver)
  let resolved: Promise<WebhookReceiver> | undefined
  const get = () => {
    resolved ??= Promise.resolve(typeof receiver === 'function' ? receiver() : receiver).then(
      (value) => {
        assertReceiver('webhooksNext', value, 'receiver()')
        return value
      },
      (error: unknown) => {
        resolved = undefined // the next delivery tries again
        throw error
      },
    )
    return resolved
  }
  return {
    async POST(request) {
      return (await get()).fetch(request)
    },
  }
}
