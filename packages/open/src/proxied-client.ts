import {
  type ClientOptions,
  MAX_MATERIALS_PER_SAVE,
  ServiceValidationError,
  type ValidationIssue,
} from '@service-sdk/core'
import { createTransport } from '@service-sdk/core/internal'
import { createOpenApi } from './api.ts'
import { assembleClient, maxMaterialsIssue, type OpenClient } from './client-assembly.ts'
import { proxyAccess } from './upload/access/proxy-access.ts'
import type { UploadDefaults } from './upload/types.ts'

/** Headers sent to the upload proxy with each call: fixed, or computed per call (a fresh session token). */
export type ProxyHeaders = HeadersInit | (() => HeadersInit | Promise<HeadersInit>)

/**
 * `createOpenClient({ proxyUrl })`: a client for browsers that reaches the open API through the
 * application's upload proxy (`createUploadProxy` from `@service-sdk/open/proxy`). No token and no
 * credential: the proxy adds the server's token to its calls and signs each object request for
 * the caller's own objects; the bytes still go from the browser straight to the object store.
 */
export interface OpenProxyClientOptions extends ClientOptions {
  /** Where the proxy is mounted, e.g. `/api/upload` or `https://api.example.com/upload`. */
  proxyUrl: string
  /** Headers that let the proxy's `authorize` hook know the user, e.g. `{ Authorization: 'Bearer <session>' }`. */
  headers?: ProxyHeaders
  /** `fetch`'s credentials mode: `'include'` sends cookies to a proxy on another origin. Default `'same-origin'`. */
  credentials?: RequestCredentials
  /** Materials per material-save call, 1 to 100. Default 100. */
  maxMaterialsPerSave?: number
  /** Defaults of `upload()` / `uploadMany()`, and how long STS credentials are reused. */
  uploads?: UploadDefaults
}

/**
 * The open client through a proxy: what an upload needs. The subscription calls stay on the
 * server, and so do credentials: there is no `credentials()` (the proxy signs each object request).
 */
export interface ProxiedOpenClient extends Omit<OpenClient, 'folders' | 'events' | 'credentials' | 'raw'> {}

const FORBIDDEN = ['token', 'openUrl', 'apiKey'] as const

function check(options: OpenProxyClientOptions): void {
  const given = options as OpenProxyClientOptions & Record<(typeof FORBIDDEN)[number], unknown>
  const max = options.maxMaterialsPerSave ?? MAX_MATERIALS_PER_SAVE
  const issues: ValidationIssue[] = FORBIDDEN.filter((name) => given[name] !== undefined).map((name) => ({
    path: name,
    message: 'must not be given with proxyUrl: the token and keys stay on the server, with the proxy',
  }))
  if (typeof options.proxyUrl !== 'string' || options.proxyUrl.trim() === '') {
    issues.push({ path: 'proxyUrl', message: 'must be the URL the upload proxy is mounted at' })
  }
  const maxIssue = maxMaterialsIssue(max)
  if (maxIssue) issues.push(maxIssue)
  if (issues.length > 0) throw new ServiceValidationError('open client options', issues)
}

// openapi-fetch needs an absolute base. A relative `proxyUrl` ('/api/upload') is resolved
// against the page when a request is made, so a client created during server-side rendering
// (no page yet) is fine until it is used there.
const RELATIVE = 'http://relative-proxy-url.invalid'

function baseOf(url: string): string {
  return (URL.canParse(url) ? url : new URL(url, RELATIVE).href).replace(/\/+$/, '')
}

function resolve(url: string): string {
  if (!url.startsWith(RELATIVE)) return url
  const page = globalThis.location?.href
  if (page) return new URL(url.slice(RELATIVE.length), page).href
  throw new ServiceValidationError('open client options', [
    {
      path: 'proxyUrl',
      message:
        'is relative, and there is no page to resolve it against: give an absolute URL outside a browser',
    },
  ])
}

/**
 * The transport's fetch, pointed at the proxy: the integrator's headers in place of the
 * `Authorization` the transport sets for the service (there is no token on this side).
 */
function proxyFetch(options: OpenProxyClientOptions): typeof globalThis.fetch {
  const inner = options.fetch ?? globalThis.fetch.bind(globalThis)
  return async (input, init = {}) => {
    const headers = new Headers(init.headers)
    headers.delete('authorization')
    const extra = typeof options.headers === 'function' ? await options.headers() : options.headers
    for (const [name, value] of new Headers(extra)) headers.set(name, value)
    // The proxy answers JSON bodies only (a page on another site cannot send one without the
    // browser asking first): calls without a body (org-info) send an empty object.
    const body = init.body ?? (headers.has('content-type') ? undefined : '{}')
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    // The transport passes the URL as a string.
    return inner(typeof input === 'string' ? resolve(input) : input, {
      ...init,
      ...(body === undefined ? {} : { body }),
      headers,
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    })
  }
}

/** `createOpenClient({ proxyUrl })`. */
export function createProxiedOpenClient(options: OpenProxyClientOptions): ProxiedOpenClient {
  check(options)
  const { proxyUrl, headers: _headers, credentials: _mode, uploads, ...common } = options
  const maxMaterialsPerSave = options.maxMaterialsPerSave ?? MAX_MATERIALS_PER_SAVE
  const transport = createTransport({
    ...common,
    area: 'open',
    baseUrl: baseOf(proxyUrl),
    authorization: 'none',
    secrets: [],
    client: 'open-proxy',
    fetch: proxyFetch(options),
  })
  // What stays on the server is left out: the subscriptions, and credentials (the proxy signs).
  const { folders, events, credentials, ...client } = assembleClient({
    api: createOpenApi(transport, undefined, { maxMaterialsPerSave, materialSaveForm: 'top-level' }),
    access: proxyAccess(transport),
    logger: transport.logger,
    maxMaterialsPerSave,
    uploads,
    instrumentation: options.instrumentation,
  })
  return client
}
