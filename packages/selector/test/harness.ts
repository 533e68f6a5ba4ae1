import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Frame, Page } from 'playwright-core'

const root = join(import.meta.dirname, '..')
export const dist = join(root, 'dist')
const fixtures = join(import.meta.dirname, 'fixtures')

export const BUILT = ['index.js', 'index.cjs', 'service-selector.iife.js'] as const

/** The built files the tests run; fails clearly when missing or older than src/. */
export function requireBuild(): void {
  const newestSource = Math.max(
    ...readdirSync(join(root, 'src'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => statSync(join(root, 'src', f)).mtimeMs),
  )
  for (const file of BUILT) {
    const path = join(dist, file)
    if (!existsSync(path))
      throw new Error(`${path} is missing: run \`pnpm build\` (the tests run the built files).`)
    if (statSync(path).mtimeMs < newestSource) {
      throw new Error(`${path} is older than src/: run \`pnpm build\` (the tests run the built files).`)
    }
  }
}

export type Build = 'esm' | 'iife'

const HARNESS: Record<Build, string> = {
  esm: `<script type="module" src="/harness-esm.js"></script>`,
  iife: `<script src="/dist/service-selector.iife.js"></script><script src="/harness-iife.js"></script>`,
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.cjs': 'text/javascript',
  '.html': 'text/html',
}

export interface Origins {
  /** The host page: http://127.0.0.1:A */
  host: string
  /** The selector app: http://localhost:B */
  app: string
  /** Someone else: http://127.0.0.1:C */
  evil: string
  close(): Promise<void>
}

export interface OriginOptions {
  /** The host page's host name. Default `127.0.0.1`; `localhost` makes it another site than a server on 127.0.0.1. */
  hostName?: string
  /** More origins the host page's CSP lets it frame (a real selector app, e.g. the simulator's). */
  frameSrc?: string[]
}

/** Three servers, three origins, one handler: the host page, the fake selector page, and an attacker. */
export async function startOrigins(options: OriginOptions = {}): Promise<Origins> {
  const servers: Server[] = []
  const origins = { host: '', app: '', evil: '' }
  const listen = async (host: string) => {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      const send = (
        status: number,
        body: string | Buffer,
        type = 'text/html',
        headers: Record<string, string> = {},
      ) => {
        res.writeHead(status, {
          'content-type': `${type}; charset=utf-8`,
          'cache-control': 'no-store',
          ...headers,
        })
        res.end(body)
      }
      const page = /^\/(esm|iife)\.html$/.exec(url.pathname)?.[1] as Build | undefined
      if (page) {
        // A strict CSP, as a careful embedder has: no inline script or style, frames only from the
        // two origins the tests embed.
        const frames = [origins.app, origins.evil, ...(options.frameSrc ?? [])].join(' ')
        const csp = `default-src 'self'; script-src 'self'; style-src 'self'; frame-src ${frames}`
        const html = `<!doctype html><html><head><meta charset="utf-8"><title>host</title>
<script src="/tracker.js"></script><script src="/host.js"></script>${HARNESS[page]}</head>
<body><button id="opener">open</button><input type="file" id="files" multiple><div id="c1"></div><div id="c2"></div></body></html>`
        return send(200, html, 'text/html', { 'content-security-policy': csp })
      }
      if (url.pathname.endsWith('/outer/outerChoice')) {
        return send(
          200,
          `<!doctype html><meta charset="utf-8"><title>fake selector</title><body>selector</body><script src="/fake-selector.js"></script>`,
        )
      }
      if (url.pathname === '/blank.html') return send(200, '<!doctype html><title>blank</title>')
      if (url.pathname === '/harness-esm.js') {
        return send(
          200,
          `import * as Selector from '/dist/index.js'; window.Selector = Selector; window.ready = 'esm'`,
          'text/javascript',
        )
      }
      if (url.pathname === '/harness-iife.js') {
        return send(200, `window.Selector = ServiceSelector; window.ready = 'iife'`, 'text/javascript')
      }
      const file = url.pathname.startsWith('/dist/')
        ? join(dist, url.pathname.slice(6))
        : join(fixtures, url.pathname.slice(1))
      if (/^[\w.-]+$/.test(file.split('/').pop() ?? '') && existsSync(file) && !url.pathname.includes('..')) {
        return send(200, readFileSync(file), TYPES[file.slice(file.lastIndexOf('.'))] ?? 'text/plain')
      }
      send(404, 'not found', 'text/plain')
    })
    await new Promise<void>((resolve) => server.listen(0, host, resolve))
    servers.push(server)
    return (server.address() as AddressInfo).port
  }
  origins.host = `http://${options.hostName ?? '127.0.0.1'}:${await listen('127.0.0.1')}`
  // `localhost`, another host name: the selector app is cross-origin and cross-site to the host.
  origins.app = `http://localhost:${await listen('127.0.0.1')}`
  origins.evil = `http://127.0.0.1:${await listen('127.0.0.1')}`
  return {
    ...origins,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
    },
  }
}

/** The Playwright frame of the selector iframe matching `selector`, once its script ran. */
export async function selectorFrame(page: Page, selector = 'iframe'): Promise<Frame> {
  const element = await page.waitForSelector(selector, { state: 'attached' })
  const frame = await element.contentFrame()
  if (!frame) throw new Error(`${selector} has no frame`)
  await frame.waitForFunction(() => 'fake' in window)
  return frame
}
