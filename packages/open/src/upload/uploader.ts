import type { Logger } from '@service-sdk/core'
import type { Instrumentation } from '@service-sdk/core/internal'
import type { OpenApi } from '../api.ts'
import { createAccessCache } from './access/access-cache.ts'
import { parseWith } from './options/option-rules.ts'
import { cleanupOptionsRule, resolveDefaults } from './options/options.ts'
import type { StorageAccess } from './oss/access.ts'
import { createPlatform } from './platform/runtime.ts'
import { loadEngine } from './run/load-engine.ts'
import { startUpload } from './run/upload.ts'
import { startUploadMany } from './run/upload-many.ts'
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
 * The upload engine of one client: its store access is shared by every upload it starts (one
 * sts-tmp call while fresh, or the upload proxy's signer), and so are its kept-alive connections.
 */
export function createUploader(options: {
  api: OpenApi
  /** How the store is reached: sts-tmp's credential (`stsAccess`), or the upload proxy. */
  access: () => Promise<StorageAccess>
  logger: Logger
  maxMaterialsPerSave: number
  defaults: UploadDefaults | undefined
  instrumentation?: Instrumentation | undefined
}): Uploader {
  const defaults = resolveDefaults(options.defaults)
  const deps = {
    api: options.api,
    platform: createPlatform(),
    access: createAccessCache(options.access, { ttlMs: defaults.credentialTtlMs }),
    logger: options.logger,
    defaults,
    maxMaterialsPerSave: options.maxMaterialsPerSave,
    instrumentation: options.instrumentation,
  }
  return {
    upload: (source, uploadOptions) => startUpload(deps, source, uploadOptions),
    uploadMany: (sources, manyOptions) => startUploadMany(deps, sources, manyOptions),
    cleanupUploads: async (cleanupOptions = {}) => {
      // Checked before the engine is loaded: bad options cost no download.
      const parsed = parseWith(cleanupOptionsRule, cleanupOptions, 'cleanupUploads options')
      return (await loadEngine()).cleanupUploads(deps, parsed)
    },
  }
}
