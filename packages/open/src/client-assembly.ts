import {
  type CallOptions,
  type Logger,
  MAX_MATERIALS_PER_SAVE,
  type OrgSpace,
  type RawClient,
  type ValidationIssue,
} from '@service-sdk/core'
import type { Instrumentation } from '@service-sdk/core/internal'
import type { OpenApi } from './api.ts'
import type { StorageAccess } from './upload/oss/access.ts'
import type { UploadDefaults } from './upload/types.ts'
import { createUploader, type Uploader } from './upload/uploader.ts'
import { writableOrgs } from './write-rule.ts'

export interface OpenClient extends OpenApi, Uploader {
  /** The team spaces the caller may upload into now (the write rule, `canWrite`). */
  writableOrgs(options?: CallOptions): Promise<OrgSpace[]>
  /**
   * The typed escape hatch: an openapi-fetch client of the spec's paths
   * (`open.raw.POST('/open-api/standard/call/service/org-info')`), with this client's token (the
   * API key on `/api/service` paths), timeouts, retries and tracing, ids lossless both ways. For
   * an endpoint the SDK does not wrap (yet), or the whole answer of one it does; see the README.
   */
  readonly raw: RawClient
}

/** What the two forms of `createOpenClient` differ in: how the API is sent and the store reached. */
export interface ClientParts {
  api: OpenApi
  /** sts-tmp's credential (`stsAccess`), or the upload proxy's signer (`proxyAccess`). */
  access: () => Promise<StorageAccess>
  logger: Logger
  maxMaterialsPerSave: number
  uploads: UploadDefaults | undefined
  instrumentation: Instrumentation | undefined
}

/**
 * The client of both forms of `createOpenClient` (with a token on a server, through the upload
 * proxy in a browser): the API's calls, `writableOrgs`, and the uploads over `access`. The server
 * form adds `raw`; the proxied one leaves out what stays on the server.
 */
export function assembleClient(parts: ClientParts): Omit<OpenClient, 'raw'> {
  const uploader = createUploader({
    api: parts.api,
    access: parts.access,
    logger: parts.logger,
    maxMaterialsPerSave: parts.maxMaterialsPerSave,
    defaults: parts.uploads,
    instrumentation: parts.instrumentation,
  })
  return {
    ...parts.api,
    writableOrgs: async (call) => writableOrgs(await parts.api.orgs(call)),
    upload: uploader.upload,
    uploadMany: uploader.uploadMany,
    cleanupUploads: uploader.cleanupUploads,
  }
}

/** The `maxMaterialsPerSave` option's check, the same in both forms. */
export function maxMaterialsIssue(value: number): ValidationIssue | undefined {
  return Number.isInteger(value) && value >= 1 && value <= MAX_MATERIALS_PER_SAVE
    ? undefined
    : { path: 'maxMaterialsPerSave', message: `must be an integer from 1 to ${MAX_MATERIALS_PER_SAVE}` }
}
