import { errorType, type Instrumentation, type SpanHandle, startSpan } from '@service-sdk/core/internal'
import type { Delivery, Receipt } from '../intake/delivery.ts'
import type { ClaimedEvent } from '../stores/store.ts'
import type { RunEvent } from '../worker/worker.ts'

/**
 * A span per delivery received (`service.webhook.receive`, server: a child of the active span,
 * such as an HTTP server instrumentation's) and per processing attempt (`service.webhook.process`,
 * consumer: a trace of its own; the handlers' spans nest under it). Recorded: the method, status, outcome, event type, key
 * (the eventId, or the content hash of a folder callback) and attempt. Never the URL (its last
 * segment is the capability token), a header or the body.
 */
export async function traceDelivery(
  instrumentation: Instrumentation,
  delivery: Delivery,
  receive: () => Promise<Receipt>,
): Promise<Receipt> {
  const span = startSpan(instrumentation, 'service.webhook.receive', 'server', {
    'http.request.method': delivery.method,
  })
  try {
    const receipt = await span.run(receive)
    span.setAttributes({
      'http.response.status_code': receipt.status,
      'webhook.outcome': receipt.error ? 'refused' : receipt.duplicate ? 'duplicate' : 'stored',
      'webhook.event_type': receipt.eventType,
      'webhook.key': receipt.key,
    })
    span.end(receipt.error)
    return receipt
  } catch (error) {
    span.end(error)
    throw error
  }
}

/** Processing spans: each ends when the attempt's outcome is known (done, retry or dead). */
export interface ProcessingTrace {
  run: RunEvent
  /** The worker's verdict on a failed attempt (`event` undefined: the store failed). */
  failed(event: ClaimedEvent | undefined, error: unknown, retryAt: number | undefined): void
}

export function traceProcessing(
  instrumentation: Instrumentation | undefined,
  run: RunEvent,
): ProcessingTrace {
  if (!instrumentation) return { run, failed() {} }
  // Failed attempts wait here for the worker's verdict: at most one per event in flight.
  const pending = new Map<string, SpanHandle>()
  const end = (span: SpanHandle, outcome: string, error?: unknown) => {
    span.setAttributes({ 'webhook.outcome': outcome })
    span.end(error)
  }
  return {
    async run(event, tools, body) {
      // A trace of its own: the worker runs in whatever context woke it (a delivery's span, the
      // poll timer's creator), which is not the cause of this event's processing.
      const span = startSpan(
        instrumentation,
        'service.webhook.process',
        'consumer',
        {
          'webhook.event_type': event.eventType,
          'webhook.key': event.key,
          'webhook.attempt': event.attempts,
        },
        { root: true },
      )
      try {
        await span.run(() => run(event, tools, body))
        end(span, 'done')
      } catch (error) {
        pending.get(event.key)?.end(error)
        pending.set(event.key, span)
        span.setAttributes({ 'error.type': errorType(error) })
        throw error
      }
    },
    failed(event, error, retryAt) {
      if (event === undefined) {
        // The store failed while settling: whatever waits has no verdict to come.
        for (const span of pending.values()) end(span, 'unknown', error)
        pending.clear()
        return
      }
      const span = pending.get(event.key)
      if (!span) return
      pending.delete(event.key)
      end(span, retryAt === undefined ? 'dead' : 'retry', error)
    },
  }
}
