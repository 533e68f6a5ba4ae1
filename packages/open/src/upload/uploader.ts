import type { Logger } from '@service-sdk/core'
import type { Instrumentation, Redactor } from '@service-sdk/core/internal'
import type { OpenApi } from '../api.ts'
import { createCredentialsCache } from './credentials-cache.ts'
import { loadEngine } from './load-engine.ts'
import { resolveDefaults } from './options.ts'
import { createPlatform } from './runtime.ts'
import type {
  CleanupOptions,
  CleanupResult,
  Upload,
  UploadBatch,
  UploadDefaults,
  UploadManyItem,
  UploadManyOptions,
  UploadOptions,
  UploadSource,
} from './types.ts'
import { startUpload } from './upload.ts'
import { startUploadMany } from './upload-many.ts'

export interface Uploader {
  upload(source: UploadSource, options?: UploadOptions): Upload
  uploadMany(sources: Iterable<UploadSource | UploadManyItem>, options?: UploadManyOptions): UploadBatch
  /**
   * Abort the multipart uploads under the credentials' directory started more than `olderThanMs`
   * (default 24 hours) ago: the parts failed uploads kept and nobody retried.
   */
  cleanupUploads(options?: CleanupOptions): Promise<CleanupResult>
}

/**
 * The upload engine of one client: its credentials are shared by every upload it starts (one
 * sts-tmp call while they are fresh), and so are its kept-alive connections.
 */
export function createUploader(options: {
  api: OpenApi
  logger: Logger
  /** The client's redactor: STS secrets are added to it as they are issued. */
  redact: Redactor
  maxMaterialsPerSave: number
  defaults: UploadDefaults | undefined
  instrumentation?: Instrumentation | undefined
}): Uploader {
  const defaults = resolveDefaults(options.defaults)
  const credentials = createCredentialsCache(() => options.api.credentials(), {
    ttlMs: defaults.credentialTtlMs,
    onIssued: (c) => {
      options.redact.add(c.accessKeySecret, c.securityToken)
      options.instrumentation?.addEvent('upload.credentials_issued') // on the upload that asked
    },
  })
  const deps = {
    api: options.api,
    platform: createPlatform(),
    credentials,
    logger: options.logger,
    defaults,
    maxMaterialsPerSave: options.maxMaterialsPerSave,
    instrumentation: options.instrumentation,
  }
  return {
    upload: (source, uploadOptions) => startUpload(deps, source, uploadOptions),
    uploadMany: (sources, manyOptions) => startUploadMany(deps, sources, manyOptions),
    cleanupUploads: async (cleanupOptions) => (await loadEngine()).cleanupUploads(deps, cleanupOptions),
  }
}
