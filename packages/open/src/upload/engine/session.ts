import { type Logger, UploadError } from '@service-sdk/core'
import type { AccessCache, CachedAccess } from '../access/access-cache.ts'
import type { StorageAccess } from '../oss/access.ts'
import { OssClient, ossConnection } from '../oss/connection.ts'
import type { RequestContext } from '../oss/types.ts'
import type { UploadPlatform } from '../platform/platform.ts'

/** The access an upload's requests go out with, and the client bound to the upload for it. */
export interface Lease {
  readonly entry: CachedAccess
  readonly client: OssClient
}

/**
 * One upload attempt's view of the shared credentials. A new credential must reach the same
 * storage: a multipart upload cannot move to another endpoint, bucket or directory half-way.
 * The connection behind a lease is the credential's, shared with every other upload
 * (oss-adapter.ts); the lease binds it to this attempt's request context.
 */
export class OssSession {
  readonly #access: AccessCache
  readonly #platform: UploadPlatform
  readonly #context: RequestContext
  readonly #logger: Logger
  #current: Lease | undefined
  #swapping: Promise<Lease> | undefined
  /** The access the upload started with: its scope (endpoint, bucket, dir) is the upload's. */
  #scope: StorageAccess | undefined

  constructor(deps: {
    access: AccessCache
    platform: UploadPlatform
    context: RequestContext
    logger: Logger
  }) {
    this.#access = deps.access
    this.#platform = deps.platform
    this.#context = deps.context
    this.#logger = deps.logger
  }

  /** The lease for the next request: a fresh credential replaces an old one before it can expire. */
  lease(): Promise<Lease> {
    if (this.#swapping) return this.#swapping
    const current = this.#current ?? this.#startNow()
    if (current && this.#access.isFresh(current.entry)) return Promise.resolve(current)
    return this.#swap(current, current ? 'age' : 'start')
  }

  /**
   * The first lease when the access is cached (every file of a batch but the first few): taken
   * at once, without a swap's `finally` and `#next`'s two waits.
   */
  #startNow(): Lease | undefined {
    const entry = this.#access.fresh()
    if (!entry) return undefined
    this.#scope = entry.access
    this.#current = { entry, client: this.#client(entry.access) }
    return this.#current
  }

  #client(access: StorageAccess): OssClient {
    const { http, signing } = this.#platform
    return new OssClient(ossConnection(access, http, signing), this.#context)
  }

  /**
   * OSS refused `from` as expired: fresh credentials and their client (a client does not swap
   * credentials under requests in flight). Requests that fail together share one refresh.
   */
  renew(from: Lease): Promise<Lease> {
    return this.#swapping ?? this.#swap(from, 'expired')
  }

  #swap(from: Lease | undefined, reason: 'start' | 'age' | 'expired'): Promise<Lease> {
    if (this.#current !== from) return Promise.resolve(this.#current as Lease)
    this.#swapping ??= this.#next(from, reason).finally(() => {
      this.#swapping = undefined
    })
    return this.#swapping
  }

  async #next(from: Lease | undefined, reason: 'start' | 'age' | 'expired'): Promise<Lease> {
    if (from && reason === 'expired') this.#access.invalidate(from.entry)
    const entry = await this.#access.get(this.#context.signal)
    if (this.#scope && !sameScope(this.#scope, entry.access)) {
      throw new UploadError({
        code: 'credential_scope_changed',
        message:
          'sts-tmp issued credentials for another endpoint, bucket or directory in the middle of the upload: it cannot continue there. Start the upload again.',
      })
    }
    this.#scope ??= entry.access
    const client = this.#current?.entry === entry ? this.#current.client : this.#client(entry.access)
    this.#current = { entry, client }
    if (from) this.#logger.info('upload: switched to new STS credentials', { reason })
    return this.#current
  }
}

function sameScope(a: StorageAccess, b: StorageAccess): boolean {
  return a.endPoint === b.endPoint && a.bucket === b.bucket && a.dir === b.dir
}
