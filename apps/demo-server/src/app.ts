import type { DemoInfo } from '@service-sdk/demo-web/api'
import type { OpenClient } from '@service-sdk/open'
import type { TeamClient } from '@service-sdk/team'
import type { WebhookReceiver } from '@service-sdk/webhooks'
import type { InboxConsole } from '@service-sdk/webhooks/console'
import { webhooksHono } from '@service-sdk/webhooks/hono'
import { Hono } from 'hono'
import type { DocsSite } from './docs.ts'
import { DemoError, toHttpError } from './errors.ts'
import type { EventFeed } from './feed.ts'
import { type DemoSession, mountInbox } from './inbox.ts'
import type { Log } from './log.ts'
import { eventRoutes } from './routes/events.ts'
import { docsPage, webPage } from './routes/pages.ts'
import { peopleOnly } from './routes/request.ts'
import { spaceRoutes } from './routes/spaces.ts'
import { teamRoutes } from './routes/team.ts'
import { uploadRoutes } from './routes/uploads.ts'
import type { UploadManager } from './uploads.ts'

export interface Readiness {
  ready: boolean
  checks: Record<string, 'ok' | 'pending' | 'failed' | 'stopping'>
}

export interface DemoDeps {
  team: TeamClient
  open: OpenClient
  receiver: WebhookReceiver
  feed: EventFeed
  uploads: UploadManager
  /** What the page may know: no key or token. */
  info(): DemoInfo
  /** Subscribe a folder's content callbacks (once per folder). */
  watchFolder(folderId: string): Promise<void>
  readiness(): Readiness
  /** The built page; without it, `/` explains how to build it. */
  webDir: string | undefined
  /** The API reference and rendered spec, built on the first visit of /docs when not built yet. */
  docs: DocsSite
  allowedHosts: readonly string[]
  log: Log
  /** Seconds between keep-alive comments on the event stream. */
  keepAliveMs?: number
  /** The webhook inbox console at `/inbox/`, behind the demo's session (see inbox.ts). */
  inbox?: { console: InboxConsole; session: DemoSession }
}

/** The demo's HTTP surface: the page, its API, the webhook receiver, health. */
export function createDemoApp(deps: DemoDeps): Hono {
  const app = new Hono()
  app.onError((error, c) => {
    const http = toHttpError(error)
    if (http.status >= 500 && http.body.error.code === 'internal') deps.log.error('request failed', error)
    return c.json(http.body, http.status as 500, { 'cache-control': 'no-store', ...http.headers })
  })

  // The webhook receiver: the token in the URL is the credential (any Host may deliver).
  app.post('/webhooks/:token', webhooksHono(deps.receiver))
  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/readyz', (c) => {
    const readiness = deps.readiness()
    return c.json(readiness, readiness.ready ? 200 : 503, { 'cache-control': 'no-store' })
  })

  app.use('*', peopleOnly(deps.allowedHosts))
  app.use('/api/*', async (c, next) => {
    await next()
    c.header('cache-control', 'no-store')
  })
  app.get('/api/config', (c) => c.json(deps.info()))
  app.route('/api/team', teamRoutes(deps.team, deps.log))
  app.route('/api', spaceRoutes(deps.open, deps.watchFolder))
  app.route('/api/uploads', uploadRoutes(deps.uploads, deps.watchFolder, deps.log))
  app.route('/api', eventRoutes(deps.feed, deps.uploads, deps.keepAliveMs ?? 15_000))
  app.all('/api/*', () => {
    throw new DemoError(404, 'not_found', 'No such API route.')
  })

  // The inbox console, as an integrator mounts it: behind the session the page is served with.
  if (deps.inbox) mountInbox(app, deps.inbox.console)
  app.get('/docs', (c) => c.redirect('/docs/'))
  app.get('/docs/*', docsPage(deps.docs))
  app.get('*', webPage(deps.webDir, deps.info, deps.inbox?.session))
  return app
}
