import type { WebhookError } from '../errors.ts'

/** A delivery as any HTTP framework can describe it; what the adapters pass to `receive()`. */
export interface Delivery {
  method: string
  /** The request URL or path; its last segment is the token. Never logged. */
  url: string
  contentType: string | null | undefined
  contentLength?: string | null | undefined
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Uint8Array | string | null
}

/** The answer to a delivery. */
export interface Receipt {
  status: number
  headers: Record<string, string>
  body: string
  /** The stored event's key, when the delivery was stored (or was a duplicate). */
  key?: string
  /** The event's type, when the delivery was stored (or was a duplicate). */
  eventType?: string
  duplicate?: boolean
  error?: WebhookError
}
