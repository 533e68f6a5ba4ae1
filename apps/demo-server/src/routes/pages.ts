import type { DemoInfo } from '@service-sdk/demo-web/api'
import type { Context } from 'hono'
import { buildingPage, type DocsSite } from '../docs.ts'
import type { DemoSession } from '../inbox.ts'
import { readStatic } from '../static.ts'

/** `/docs/*`: the API reference and the rendered spec, built on the first visit. */
export function docsPage(docs: DocsSite) {
  return async (c: Context) => {
    const state = docs.state()
    if (state.kind === 'building')
      return c.html(buildingPage(state.since), 503, { 'retry-after': '3', 'cache-control': 'no-store' })
    if (state.kind === 'failed')
      return c.text(`Building the docs failed (pnpm run docs shows why):\n\n${state.output}`, 500)
    if (state.kind === 'unavailable')
      return c.text('The docs are not built: run `pnpm run docs` from the repository root.', 503)
    const path = new URL(c.req.url).pathname.slice('/docs'.length)
    const file = await readStatic(docs.dir, path.endsWith('/') ? `${path}index.html` : path)
    if (!file) return c.text('Not found', 404)
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, {
      'content-type': file.type,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    })
  }
}

/**
 * The page (Vite's build): its files, and index.html for its own routes; the HTML under a strict
 * content security policy and with the demo's session cookie.
 */
export function webPage(webDir: string | undefined, info: () => DemoInfo, session: DemoSession | undefined) {
  return async (c: Context) => {
    if (!webDir) {
      return c.text(
        'The demo page is not built: run `pnpm build` (or `pnpm demo`) from the repository root.',
        503,
      )
    }
    const path = new URL(c.req.url).pathname
    const file =
      (await readStatic(webDir, path)) ??
      // Unknown paths without an extension are the page's own routes.
      (/\.[a-z0-9]+$/i.test(path) ? undefined : await readStatic(webDir, '/index.html'))
    if (!file) return c.text('Not found', 404)
    const headers: Record<string, string> = {
      'content-type': file.type,
      'x-content-type-options': 'nosniff',
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    }
    if (file.type.startsWith('text/html')) {
      headers['content-security-policy'] = contentSecurityPolicy(info())
      if (session) headers['set-cookie'] = session.cookie()
      headers['referrer-policy'] = 'strict-origin-when-cross-origin'
      headers['cache-control'] = 'no-store'
    }
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, headers)
  }
}

/**
 * The page runs only its own scripts and styles; it frames the selector app and the impersonation
 * login, and nothing else; nobody frames it.
 */
function contentSecurityPolicy(info: DemoInfo): string {
  const frames = new Set([new URL(info.appUrl).origin, info.baseOrigin])
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${[...frames].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
}
