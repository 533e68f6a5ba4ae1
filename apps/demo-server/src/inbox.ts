import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { InboxConsole } from '@service-sdk/webhooks/console'
import type { Hono } from 'hono'

/**
 * The demo's own session: one random id per run, handed to the page as an HttpOnly, SameSite
 * cookie when the page is served. The webhook inbox console (`@service-sdk/webhooks/console`)
 * is mounted behind it, as an integrator mounts it behind theirs: its `authorize` asks for the
 * cookie, so the console answers the demo's page and nobody else.
 */
export interface DemoSession {
  /** The `Set-Cookie` value the page is served with. */
  cookie(): string
  /** Whether the request carries this run's session cookie (compared in constant time). */
  authorize(request: Request): boolean
}

const NAME = 'demo_session'
const digest = (text: string) => createHash('sha256').update(text).digest()

export function demoSession(): DemoSession {
  const id = randomBytes(32).toString('base64url')
  const expected = digest(id)
  return {
    cookie: () => `${NAME}=${id}; Path=/; HttpOnly; SameSite=Strict`,
    authorize(request) {
      const sent = (request.headers.get('cookie') ?? '')
        .split(';')
        .map((part) => part.trim())
        .find((part) => part.startsWith(`${NAME}=`))
        ?.slice(NAME.length + 1)
      return sent !== undefined && timingSafeEqual(digest(sent), expected)
    },
  }
}

/** The console's routes on the demo's app: `/inbox/` and everything under it. */
export function mountInbox(app: Hono, inbox: InboxConsole): void {
  app.get(inbox.basePath, (c) => c.redirect(`${inbox.basePath}/`))
  app.all(`${inbox.basePath}/*`, (c) => inbox.fetch(c.req.raw))
}
