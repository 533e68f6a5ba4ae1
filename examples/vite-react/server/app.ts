import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { createUploadProxy } from '@service-sdk/open/proxy'
import { Hono } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'

export interface AppConfig {
  /** The service's open API, and the server's token for it (it never reaches the browser). */
  openUrl: string
  token: { type: string; value: string }
  /** The folder selector app, which the page embeds. */
  appUrl: string
  /** The built page (`vite build`) to serve; omitted in development, where Vite serves it. */
  dist?: string | undefined
}

/** The session cookie this example identifies a browser with; use your own sign-in instead. */
const SESSION = 'session'

const sessionOf = (request: Request): string | undefined =>
  /(?:^|;\s*)session=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1]

/** The backend: the page's configuration, the upload proxy, and (built) the page itself. */
export function createApp(config: AppConfig): Hono {
  const proxy = createUploadProxy({
    openUrl: config.openUrl,
    token: config.token,
    // Who is uploading: each session uploads into its own directory. Answering false gives 401.
    authorize: (request) => {
      const session = sessionOf(request)
      return session ? { id: session } : false
    },
  })

  const app = new Hono()
  app.all('/api/upload/*', (c) => proxy(c.req.raw))
  app.get('/api/config', (c) => {
    if (!getCookie(c, SESSION))
      setCookie(c, SESSION, randomUUID(), { httpOnly: true, sameSite: 'Lax', path: '/' })
    return c.json({ appUrl: config.appUrl })
  })
  if (config.dist) {
    app.use('*', serveStatic({ root: config.dist }))
    app.get('*', serveStatic({ path: join(config.dist, 'index.html') }))
  }
  return app
}
