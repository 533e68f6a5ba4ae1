import type { Client, Middleware } from 'openapi-fetch'
import type { paths } from '../generated/openapi.ts'
import { stringifyServiceJson } from '../json/service-json.ts'
import type { Transport } from './transport.ts'

/**
 * The typed escape hatch of a client (`team.raw`, `open.raw`): an openapi-fetch client typed by
 * the spec's `paths`, sending through the client's own transport (authorization, lossless ids both
 * ways, per-attempt timeout, retries, tracing, `onResponse` hooks). `data` is the whole answer as
 * the spec types it, envelope included; a failure throws the SDK's typed error, as a wrapped call
 * does. Besides openapi-fetch's options, a call takes `idempotent: true` (a POST that may be
 * retried like a GET) and `timeoutMs` (this call's per-attempt timeout).
 */
export type RawClient = Client<paths, 'application/json'>

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const

/**
 * A `RawClient` on `baseUrl` whose requests go through the transport `route` picks for their path.
 * openapi-fetch is loaded on the first call (a chunk of its own in browser bundles).
 */
export function createRawClient(baseUrl: string, route: (path: string) => Transport): RawClient {
  const templates = new WeakMap<Request, string>()
  const middlewares: Middleware[] = [
    // The path template, for logs and traces (`/api/team/members/{userId}/impersonation`).
    { onRequest: ({ request, schemaPath }) => void templates.set(request, schemaPath) },
  ]
  let client: Client<paths, 'application/json'> | undefined
  let loading: Promise<Client<paths, 'application/json'>> | undefined
  const load = () =>
    (loading ??= import('openapi-fetch').then(({ default: createClient }) => {
      client = createClient<paths, 'application/json'>({
        baseUrl,
        bodySerializer: (body: unknown) => stringifyServiceJson(body),
        fetch: (request: Request) =>
          route(new URL(request.url).pathname).sendRaw(request, templates.get(request)),
      })
      client.use(...middlewares)
      return client
    }))
  const call =
    (method: string) =>
    async (...args: unknown[]) =>
      ((await load()) as unknown as Record<string, (...a: unknown[]) => unknown>)[method]?.(...args)
  const raw = Object.fromEntries([...METHODS, 'request'].map((method) => [method, call(method)]))
  return {
    ...raw,
    use(...added: Middleware[]) {
      if (client) client.use(...added)
      else middlewares.push(...added)
    },
    eject(...removed: Middleware[]) {
      if (client) client.eject(...removed)
      else
        for (const m of removed) {
          const at = middlewares.indexOf(m)
          // 0 is the client's own (the path template): never removed.
          if (at > 0) middlewares.splice(at, 1)
        }
    },
  } as unknown as RawClient
}
