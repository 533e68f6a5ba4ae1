import type { WebhookError } from '../errors.ts'
import type { Receipt } from '../receiver.ts'

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

/** The answer to a refused delivery: its status, and the headers that status calls for. */
export function refusal(error: WebhookError): Receipt {
  const status = error.status ?? 400
  // A wrong token looks exactly like a URL that does not exist.
  if (status === 404) return { status, headers: { 'content-type': 'text/plain' }, body: 'Not Found', error }
  const headers: Record<string, string> = { ...JSON_HEADERS }
  if (status === 405) headers.allow = 'POST'
  if (status === 503) headers['retry-after'] = '1'
  if (status === 413) headers.connection = 'close'
  return { status, headers, body: JSON.stringify({ error: error.code, message: error.message }), error }
}
