import type { Redactor } from '@service-sdk/core/internal'
import type { Html } from './html.ts'

/** Headers on every answer: nothing cached, nothing sniffed, no referrer, never framed. */
const COMMON: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
}

/**
 * The page's policy: its own script and style files only (no inline script or style, no other
 * origin), requests to itself only, no frames, no forms posted anywhere (actions are the
 * script's JSON requests), no plugins.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

/** How every answer leaves: its text scrubbed of the configured secrets first. */
export interface Answers {
  json(value: unknown, status?: number): Response
  html(page: Html, status?: number): Response
  asset(text: string, type: string): Response
  /** A refusal or failure, as JSON for the API and as a short page for people. */
  error(status: number, code: string, message: string, asPage: boolean): Response
}

export function answers(scrub: Redactor): Answers {
  const send = (text: string, status: number, headers: Record<string, string>) =>
    new Response(scrub(text), { status, headers: { ...COMMON, ...headers } })
  const json = (value: unknown, status = 200) =>
    send(JSON.stringify(value), status, { 'content-type': 'application/json; charset=utf-8' })
  const html = (page: Html, status = 200) =>
    send(page.text, status, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    })
  return {
    json,
    html,
    asset: (text, type) => send(text, 200, { 'content-type': `${type}; charset=utf-8` }),
    error(status, code, message, asPage) {
      if (!asPage) return json({ error: { code, message } }, status)
      return send(`${message}\n`, status, { 'content-type': 'text/plain; charset=utf-8' })
    },
  }
}
