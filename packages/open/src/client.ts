import {
  type CallOptions,
  type ClientOptions,
  MAX_MATERIALS_PER_SAVE,
  type OpenToken,
  type OrgSpace,
  ServiceValidationError,
} from '@service-sdk/core'
import { createOpenTransport, createSubscriptionTransport } from '@service-sdk/core/internal'
import { createOpenApi, type MaterialSaveForm, type OpenApi } from './api.ts'
import {
  createProxiedOpenClient,
  type OpenProxyClientOptions,
  type ProxiedOpenClient,
} from './proxied-client.ts'
import { stsAccess } from './upload/access/sts-access.ts'
import type { UploadDefaults } from './upload/types.ts'
import { createUploader, type Uploader } from './upload/uploader.ts'
import { writableOrgs } from './write-rule.ts'

export interface OpenClientOptions extends ClientOptions {
  /** `{open_url}` of the service. */
  openUrl: string
  /** The open API token, sent as `Authorization: <type> <value>` on /open-api paths. */
  token: OpenToken
  /** The API key for the subscription endpoints (`folders.*`, `events.*`). Optional otherwise. */
  apiKey?: string
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

export interface OpenClient extends OpenApi, Uploader {
  /** The team spaces the caller may upload into now (the write rule, `canWrite`). */
  writableOrgs(options?: CallOptions): Promise<OrgSpace[]>
}

/** The open API (area B); in browsers, through the upload proxy: `createOpenClient({ proxyUrl })`. */
export function createOpenClient(options: OpenProxyClientOptions): ProxiedOpenClient
export function createOpenClient(options: OpenClientOptions): OpenClient
export function createOpenClient(
  options: OpenClientOptions | OpenProxyClientOptions,
): OpenClient | ProxiedOpenClient {
  if ('proxyUrl' in options) return createProxiedOpenClient(options)
  const { apiKey, maxMaterialsPerSave = 100, materialSaveForm = 'top-level', uploads, ...common } = options
  const issues = [
    materialSaveForm === 'top-level' || materialSaveForm === 'param'
      ? undefined
      : { path: 'materialSaveForm', message: "must be 'top-level' or 'param'" },
    Number.isInteger(maxMaterialsPerSave) &&
    maxMaterialsPerSave >= 1 &&
    maxMaterialsPerSave <= MAX_MATERIALS_PER_SAVE
      ? undefined
      : { path: 'maxMaterialsPerSave', message: `must be an integer from 1 to ${MAX_MATERIALS_PER_SAVE}` },
  ].filter((issue) => issue !== undefined)
  if (issues.length > 0) throw new ServiceValidationError('open client options', issues)
  const open = createOpenTransport(common)
  const subscription = apiKey === undefined ? undefined : createSubscriptionTransport({ ...common, apiKey })
  const api = createOpenApi(open, subscription, { maxMaterialsPerSave, materialSaveForm })
  const uploader = createUploader({
    api,
    access: stsAccess({
      credentials: () => api.credentials(),
      redact: open.redact,
      instrumentation: options.instrumentation,
    }),
    logger: open.logger,
    maxMaterialsPerSave,
    defaults: uploads,
    instrumentation: options.instrumentation,
  })
  return {
    ...api,
    writableOrgs: async (call) => writableOrgs(await api.orgs(call)),
    upload: uploader.upload,
    uploadMany: uploader.uploadMany,
    cleanupUploads: uploader.cleanupUploads,
  }
}
