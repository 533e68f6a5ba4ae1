import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type ServerType, serve } from '@hono/node-server'
import type { Hono } from 'hono'
import { ConfigError, type DemoConfig } from './config.ts'
import { docsSite, repositoryDocsBuild } from './docs.ts'

/**
 * The docs /docs serves: `DEMO_DOCS_DIR`, else the repository's docs/site; built there by the
 * repository's `scripts/docs.ts` on the first visit when they are not there yet.
 */
export function docsOf(config: DemoConfig) {
  const root = join(import.meta.dirname, '..', '..', '..')
  const dir = config.docsDir ?? join(root, 'docs', 'site')
  return docsSite(dir, repositoryDocsBuild(root, dir))
}

/** `@service-sdk/demo-web`'s Vite build, when it exists. */
export function builtWebDir(): string | undefined {
  try {
    const pkg = createRequire(import.meta.url).resolve('@service-sdk/demo-web/package.json')
    const dir = join(dirname(pkg), 'dist')
    readFileSync(join(dir, 'index.html'))
    return dir
  } catch {
    return undefined
  }
}

/** Listen on `hostname:port`; a port in use or a host it cannot bind is a configuration error. */
export function listen(app: Hono, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port,
        hostname,
        // Large uploads take longer than Node's default 5-minute request timeout.
        serverOptions: { requestTimeout: 0 },
      },
      () => resolve(server),
    )
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new ConfigError([
            {
              variable: 'PORT',
              message: `port ${port} is in use on ${hostname}: choose another (PORT=0 picks a free one)`,
            },
          ]),
        )
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(
          new ConfigError([{ variable: 'HOST', message: `cannot listen on "${hostname}" (${error.code})` }]),
        )
      } else reject(error)
    })
  })
}

/** Close the server: idle connections now, the others after their answer (forced after 5 s). */
export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    const http = server as Server
    const force = setTimeout(() => http.closeAllConnections?.(), 5000)
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    http.closeIdleConnections?.()
  })
}

const LOCAL = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '::', '::1'])

/** The host the service calls back by default: a local listener is reached on 127.0.0.1. */
export function callbackHost(host: string): string {
  return LOCAL.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
}

/** The one URL to open. */
export function pageUrl(host: string, port: number): string {
  return `http://${LOCAL.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`
}
