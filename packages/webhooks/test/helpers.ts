import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import type { WebhookReceiver } from '../src/receiver/receiver.ts'

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

/**
 * Starts the crash test's receiver process (test/fixtures/crash-receiver.ts) on `db`, its
 * handlers writing to `ledger`; resolves once it listens.
 */
export function startCrashReceiver(
  db: string,
  ledger: string,
  token: string,
  extra: string[] = [],
): Promise<{ process: ChildProcess; url: string }> {
  const child = join(import.meta.dirname, 'fixtures', 'crash-receiver.ts')
  const args = ['--conditions=@service-sdk/source', child, db, ledger, token, ...extra]
  const started = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    started.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const port = /listening (\d+)/.exec(out)?.[1]
      if (port) resolve({ process: started, url: `http://127.0.0.1:${port}` })
    })
    started.once('exit', (code) => reject(new Error(`receiver exited early (${code})`)))
  })
}
