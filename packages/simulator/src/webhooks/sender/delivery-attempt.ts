import { type DeliveryHandler, deliverInProcess } from '../../testing/deliver.ts'

const USER_AGENT = 'service-sim-webhooks'

/** What one attempt came to: the receiver's status, or why there was none. */
export type AttemptOutcome = { status: number } | { error: string }

/**
 * POST one delivery, over HTTP or to an in-process handler, and read only its status (the body is
 * released unread). Never throws: a timeout, a reset or a crashed handler is an `error` outcome.
 */
export async function sendAttempt(
  url: string,
  text: string,
  options: { timeoutMs: number; signal: AbortSignal; handler: DeliveryHandler | undefined },
): Promise<AttemptOutcome> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: text,
    redirect: 'manual',
    signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
  }
  try {
    const response = options.handler
      ? await deliverInProcess(options.handler, url, init)
      : await fetch(url, init)
    await response.body?.cancel().catch(() => {})
    return { status: response.status }
  } catch (error) {
    return { error: describe(error, options.timeoutMs) }
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined
  if (cause?.code) return `${cause.code}: ${cause.message ?? 'connection error'}`
  return error instanceof Error ? error.message : String(error)
}

/** The URL may carry the receiver's secret token: logs name its origin only. */
export function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : 'an invalid URL'
}
