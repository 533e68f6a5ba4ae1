import { Hono } from 'hono'
import type { SimContext } from '../model/context.ts'
import { page } from './layout.ts'

/**
 * The impersonation login URL's target. It shows who is signed in, so an embedder can see in
 * its iframe that the link worked. Framing is allowed on purpose: the URL is meant for an iframe.
 */
export function loginRoutes(sim: SimContext): Hono {
  const app = new Hono()
  app.get('/impersonation-login', (c) => {
    const token = c.req.query('token') ?? ''
    const grant = sim.state.data.impersonations.find((g) => g.token === token)
    if (!grant || grant.expiresAt <= sim.now()) {
      return c.html(
        page('Link expired', '<h1>This login link is invalid or has expired</h1><p>Ask for a new one.</p>'),
        401,
      )
    }
    const user = sim.state.user(grant.userId)
    const team = sim.state.team(grant.teamId)
    const callbackUrl = c.req.query('callbackUrl') ?? grant.callbackUrl
    return c.html(
      page(
        `Signed in as ${user?.name ?? grant.userId}`,
        `<h1 data-testid="signed-in">Signed in as ${escapeHtml(user?.name ?? '')}</h1>
         <p><span data-testid="email">${escapeHtml(user?.email ?? '')}</span> · ${escapeHtml(team?.name ?? '')}</p>
         <p>Session valid until ${new Date(grant.expiresAt).toISOString()}.</p>
         <p>Continue to <code data-testid="callback">${escapeHtml(callbackUrl)}</code></p>`,
      ),
    )
  })
  return app
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}
