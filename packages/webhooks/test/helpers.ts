import type { WebhookReceiver } from '../src/receiver.ts'

export const BASE = 'https://hooks.example.com/webhooks'

export function post(
  receiver: WebhookReceiver,
  token: string,
  body: BodyInit | null,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Response> {
  return receiver.fetch(new Request(`${BASE}/${token}`, { method: 'POST', headers, body }))
}

/** A clock the test moves by hand: backoff and lease expiry without waiting. */
export function manualClock(start = 1_753_946_835_010) {
  let now = start
  return {
    now: () => now,
    random: () => 0.5,
    advance(ms: number) {
      now += ms
    },
  }
}

/** A logger that keeps every line, to check what reaches logs. */
export function captureLogger() {
  const lines: string[] = []
  const write =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push(`${level} ${message} ${fields === undefined ? '' : JSON.stringify(fields)}`)
    }
  return {
    lines,
    logger: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') },
  }
}
