import type { WebhookError } from '../errors.ts'
import type { Receipt } from './delivery.ts'

const JSON_HEADERS = { 'content-type': 'application/json' }
// Built once: every acknowledgement sends the same bytes.
const ACK = JSON.stringify({ received: true })
const ACK_DUPLICATE = JSON.stringify({ received: true, duplicate: true })

/** The 200 for a stored event, or for a duplicate of one already stored. */
export function acknowledged(key: string, eventType: string, duplicate: boolean): Receipt {
  return {
    status: 200,
    headers: JSON_HEADERS,
    body: duplicate ? ACK_DUPLICATE : ACK,
    key,
    eventType,
    duplicate,
  }
}

/**
 * The answer to a delivery refused before its body was read to the end (a wrong token, a method,
 * a body too large): the connection closes after it. Kept open, the server would read and discard
 * whatever the sender goes on sending (an endless body, for as long as the sender likes).
 */
export const CLOSE = { connection: 'close' } as const

/** The answer to a refused delivery: its status, and the headers that status calls for. */
export function refusal(error: WebhookError): Receipt {
  const status = error.status ?? 400
  // A wrong token looks exactly like a URL that does not exist.
  if (status === 404) return { status, headers: NOT_FOUND_HEADERS, body: 'Not Found', error }
  const headers: Record<string, string> = { ...JSON_HEADERS }
  if (status === 405) Object.assign(headers, CLOSE, { allow: 'POST' })
  if (status === 503) headers['retry-after'] = '1'
  if (status === 413) Object.assign(headers, CLOSE)
  return { status, headers, body: JSON.stringify({ error: error.code, message: error.message }), error }
}

/** A 404 (a wrong token, or another path), as a URL that does not exist; the body is left unread. */
export const NOT_FOUND_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'text/plain', ...CLOSE }
