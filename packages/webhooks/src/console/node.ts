import type { IncomingMessage, ServerResponse } from 'node:http'
import { readCapped } from '../intake/body.ts'
import type { InboxConsole } from './handler.ts'

/** The body of an action, at most (see handler.ts). */
const MAX_BODY_BYTES = 4 * 1024 * 1024

/** A request listener or middleware for Node's `http`, Express, Koa (`ctx.req`, `ctx.res`) and Fastify (`request.raw`). */
export type ConsoleListener = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void

/**
 * The console on Node's `http` API: `createServer(consoleNode(inbox))`, or Express middleware
 * (`app.use('/inbox', consoleNode(inbox))`: Express's `originalUrl` keeps the mount path).
 * A body an Express JSON parser already read (`req.body`) is used as it was parsed.
 */
export function consoleNode(inbox: InboxConsole): ConsoleListener {
  return (req, res, next) => {
    toRequest(req)
      .then((request) => inbox.fetch(request))
      .then((response) => send(response, res))
      .catch((error: unknown) => {
        if (next) next(error)
        else if (!res.headersSent) res.writeHead(500).end()
        else res.destroy()
      })
  }
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const path = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'
  const url = new URL(path, `http://${req.headers.host ?? 'localhost'}`)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  const method = req.method ?? 'GET'
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers })
  const parsed = (req as { body?: unknown }).body
  const body =
    parsed !== undefined && typeof parsed === 'object' && req.readableEnded
      ? JSON.stringify(parsed)
      : new Uint8Array(await readCapped(req, MAX_BODY_BYTES, req.headers['content-length']))
  headers.delete('content-length')
  return new Request(url, { method, headers, body })
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const body = Buffer.from(await response.arrayBuffer())
  res.writeHead(response.status, headers)
  res.end(body)
}
