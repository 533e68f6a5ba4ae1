import { ServiceValidationError } from '@service-sdk/core'
import type { WebhookReceiver } from '../receiver/receiver.ts'

/** Thrown when an adapter is built, before any request: a receiver is what it needs. */
export function assertReceiver(
  adapter: string,
  value: unknown,
  path = 'receiver',
): asserts value is WebhookReceiver {
  const receiver = value as Partial<WebhookReceiver> | null | undefined
  if (typeof receiver?.receive !== 'function' || typeof receiver.fetch !== 'function') {
    throw new ServiceValidationError(`${adapter} options`, [
      { path, message: 'must be a receiver from createWebhookReceiver()' },
    ])
  }
}
