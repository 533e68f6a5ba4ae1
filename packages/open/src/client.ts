import { type ClientOptions, type OpenToken, ServiceValidationError } from '@service-sdk/core'
import { createOpenTransport, createRawClient, createSubscriptionTransport } from '@service-sdk/core/internal'
import { createOpenApi, type MaterialSaveForm } from './api.ts'
import { assembleClient, maxMaterialsIssue, type OpenClient } from './client-assembly.ts'
import {
  createProxiedOpenClient,
  type OpenProxyClientOptions,
  type ProxiedOpenClient,
} from './proxied-client.ts'
import { stsAccess } from './upload/access/sts-access.ts'
import type { UploadDefaults } from './upload/types.ts'

export interface OpenClientOptions extends ClientOptions {
  /** `{open_url}` of the service. `undefined` (an unset environment variable) is refused with a `ServiceValidationError`. */
  openUrl: string | undefined
  /** The open API token, sent as `Authorization: <type> <value>` on /open-api paths; both parts required. */
  token: OpenToken
  /** The API key for the subscription endpoints (`folders.*`, `events.*`). Optional otherwise: without it, those calls throw. */
  apiKey?: string | undefined
  /** Only with `createOpenClient({ proxyUrl })` (browsers), never with `openUrl` and `token`. */
  proxyUrl?: undefined
  /** Materials per material-save call, 1 to 100 (the service's limit); longer lists are split. Default 100. */
  maxMaterialsPerSave?: number
  /**
   * The material-save body form: `'top-level'` `{orgId?, materials}` (default) or `'param'`
   * `{param: {orgId?, materials}}`. The service's documentation shows both and does not say which
   * one it reads (docs/service/material-save.md); if saves fail with a parameter error saying
   * materials are missing, switch to the other.
   */
  materialSaveForm?: MaterialSaveForm
  /** Defaults of `upload()` / `uploadMany()`, and how long STS credentials are reused. */
  uploads?: UploadDefaults
}

/**
 * The open API (area B) from a server or script: `openUrl` and the open API `token`, plus
 * `apiKey` for the subscription calls. Every call of the API and `upload()` / `uploadMany()`.
 * Throws a `ServiceValidationError` for a missing or bad option (an unset environment variable
 * included), before anything is sent.
 */
export function createOpenClient(options: OpenClientOptions): OpenClient
/**
 * The open client of a browser page, through the application's upload proxy
 * (`createUploadProxy` of `@service-sdk/open/proxy`): no token, no key, no credential on the page.
 * Every call but `credentials()` and the subscriptions (which stay on the server) goes through
 * the proxy; the bytes go straight to the object store. Refuses `openUrl`, `token` and `apiKey`.
 */
export function createOpenClient(options: OpenProxyClientOptions): ProxiedOpenClient
export function createOpenClient(
  options: OpenClientOptions | OpenProxyClientOptions,
): OpenClient | ProxiedOpenClient {
  // A `proxyUrl` key, even undefined (an unset variable in a browser build), means the proxied client:
  // its check then names `proxyUrl`.
  if ('proxyUrl' in options) return createProxiedOpenClient(options as OpenProxyClientOptions)
  const { apiKey, maxMaterialsPerSave = 100, materialSaveForm = 'top-level', uploads, ...common } = options
  const issues = [
    materialSaveForm === 'top-level' || materialSaveForm === 'param'
      ? undefined
      : { path: 'materialSaveForm', message: "must be 'top-level' or 'param'" },
    maxMaterialsIssue(maxMaterialsPerSave),
  ].filter((issue) => issue !== undefined)
  if (issues.length > 0) throw new ServiceValidationError('open client options', issues)
  const open = createOpenTransport(common)
  const subscription = apiKey === undefined ? undefined : createSubscriptionTransport({ ...common, apiKey })
  const api = createOpenApi(open, subscription, { maxMaterialsPerSave, materialSaveForm })
  const { instrumentation } = options
  const credentials = () => api.credentials()
  return {
    ...assembleClient({
      api,
      access: stsAccess({ credentials, redact: open.redact, instrumentation }),
      logger: open.logger,
      maxMaterialsPerSave,
      uploads,
      instrumentation,
    }),
    raw: createRawClient(options.openUrl as string, (path) => {
      if (!path.startsWith('/api/service/')) return open
      if (subscription) return subscription
      throw new ServiceValidationError('open client options', [
        { path: 'apiKey', message: `is required for ${path} (the subscription endpoints)` },
      ])
    }),
  }
}
