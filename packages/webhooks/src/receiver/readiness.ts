import type { Redactor } from '@service-sdk/core/internal'
import { describeError } from '../errors.ts'
import type { WebhookStore } from '../stores/store.ts'

/** What a readiness probe reports: answer 503 when not ready, so the load balancer sends elsewhere. */
export type Readiness = { ready: true } | { ready: false; reason: string }

/** Whether the store answers now (`ping`, or a count for stores without one). */
export async function readiness(store: WebhookStore, redact: Redactor): Promise<Readiness> {
  try {
    if (store.ping) await store.ping()
    else await store.counts()
    return { ready: true }
  } catch (error) {
    return { ready: false, reason: redact(describeError(error)).slice(0, 500) }
  }
}
