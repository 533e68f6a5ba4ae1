import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import { createUploadProxy } from '@service-sdk/open/proxy'
import type { RunningSimulator } from '@service-sdk/simulator'
import { Hono } from 'hono'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

async function listen(app: Hono, hostname: string): Promise<{ server: ServerType; origin: string }> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname }, () => resolve(s))
  })
  return { server, origin: `http://${hostname}:${(server.address() as AddressInfo).port}` }
}

/** The built page's files, as a static file server answers them. */
export function pageFiles(dist: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname } = new URL(request.url)
    const path = normalize(pathname === '/' ? '/index.html' : pathname)
    const body = await readFile(join(dist, path)).catch(() => undefined)
    if (!body) return new Response('Not found', { status: 404 })
    return new Response(body, {
      headers: { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' },
    })
  }
}

export interface Servers {
  /** The page's origin (`localhost`). */
  page: string
  /** The upload proxy's URL, on another origin (`127.0.0.1`). */
  proxyUrl: string
  close(): Promise<void>
}

/** The built page on `localhost`; the application's backend with the upload proxy on `127.0.0.1`. */
export async function startServers(dist: string, sim: RunningSimulator): Promise<Servers> {
  const files = pageFiles(dist)
  const pages = new Hono()
  pages.get('*', (c) => files(c.req.raw))
  const page = await listen(pages, 'localhost')

  const proxy = createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    authorize: (request) =>
      request.headers.get('authorization') === 'Bearer alice-session' ? { id: 'alice' } : false,
    allowedOrigins: [page.origin],
  })
  const api = new Hono()
  api.all('/api/upload/*', (c) => proxy(c.req.raw))
  const backend = await listen(api, '127.0.0.1')

  const close = (server: ServerType) => new Promise((resolve) => server.close(resolve))
  return {
    page: page.origin,
    proxyUrl: `${backend.origin}/api/upload`,
    close: async () => {
      await Promise.all([close(page.server), close(backend.server)])
    },
  }
}
