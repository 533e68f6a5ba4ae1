import { type Logger, type UploadCredential, UploadError } from '@service-sdk/core'
import type { CachedCredential, CredentialsCache } from './credentials-cache.ts'
import { createOssClient, type OssClient, type OssHttp } from './oss-adapter.ts'

/** The credential an upload's requests go out with, and the ali-oss client made for it. */
export interface Lease {
  readonly entry: CachedCredential
  readonly client: OssClient
}

export interface OssSession {
  /** The lease for the next request: a fresh credential replaces an old one before it can expire. */
  lease(): Promise<Lease>
  /**
   * OSS refused `from` as expired: fresh credentials and a new ali-oss client (ali-oss cannot swap
   * credentials under requests in flight). Requests that fail together share one refresh.
   */
  renew(from: Lease): Promise<Lease>
  /** The credential the upload started with: its scope (endpoint, bucket, dir) is the upload's. */
  readonly first: UploadCredential | undefined
}

/**
 * One upload's view of the shared credentials. A new credential must reach the same storage:
 * a multipart upload cannot move to another endpoint, bucket or directory half-way.
 */
export function createOssSession(deps: {
  credentials: CredentialsCache
  http: OssHttp
  signal: AbortSignal
  logger: Logger
}): OssSession {
  let current: Lease | undefined
  let swapping: Promise<Lease> | undefined
  let first: UploadCredential | undefined

  const swap = (from: Lease | undefined, reason: 'start' | 'age' | 'expired'): Promise<Lease> => {
    if (current !== from) return Promise.resolve(current as Lease)
    swapping ??= (async () => {
      if (from && reason === 'expired') deps.credentials.invalidate(from.entry)
      const entry = await deps.credentials.get(deps.signal)
      if (first && !sameScope(first, entry.credential)) {
        throw new UploadError({
          code: 'credential_scope_changed',
          message:
            'sts-tmp issued credentials for another endpoint, bucket or directory in the middle of the upload: it cannot continue there. Start the upload again.',
        })
      }
      first ??= entry.credential
      current = {
        entry,
        client:
          current?.entry === entry ? current.client : await createOssClient(entry.credential, deps.http),
      }
      if (from) deps.logger.info('upload: switched to new STS credentials', { reason })
      return current
    })().finally(() => {
      swapping = undefined
    })
    return swapping
  }

  return {
    lease() {
      if (swapping) return swapping
      if (current && deps.credentials.isFresh(current.entry)) return Promise.resolve(current)
      return swap(current, current ? 'age' : 'start')
    },
    renew: (from) => (swapping ? swapping : swap(from, 'expired')),
    get first() {
      return first
    },
  }
}

function sameScope(a: UploadCredential, b: UploadCredential): boolean {
  return a.endPoint === b.endPoint && a.bucket === b.bucket && a.dir === b.dir
}
