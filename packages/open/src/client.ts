import {
  type CallOptions,
  type ClientOptions,
  createOpenTransport,
  createSubscriptionTransport,
  type OpenToken,
  type OrgSpace,
} from '@service-sdk/core'
import { createOpenApi, type OpenApi } from './api.ts'
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
  /** Materials per material-save call; longer lists are split. Default 100. */
  maxMaterialsPerSave?: number
  /** Defaults of `upload()` / `uploadMany()`, and how long STS credentials are reused. */
  uploads?: UploadDefaults
}

export interface OpenClient extends OpenApi, Uploader {
  /** The team spaces the caller may upload into now (the write rule of interface §2.4). */
  writableOrgs(options?: CallOptions): Promise<OrgSpace[]>
}

/** The open API (area B). */
export function createOpenClient(options: OpenClientOptions): OpenClient {
  const { apiKey, maxMaterialsPerSave = 100, uploads, ...common } = options
  const open = createOpenTransport(common)
  const subscription = apiKey === undefined ? undefined : createSubscriptionTransport({ ...common, apiKey })
  const api = createOpenApi(open, subscription, { maxMaterialsPerSave })
  const uploader = createUploader({
    api,
    logger: open.logger,
    redact: open.redact,
    maxMaterialsPerSave,
    defaults: uploads,
  })
  return {
    ...api,
    writableOrgs: async (call) => writableOrgs(await api.orgs(call)),
    upload: uploader.upload,
    uploadMany: uploader.uploadMany,
    cleanupUploads: uploader.cleanupUploads,
  }
}
