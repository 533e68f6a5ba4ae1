import { type Logger, type UploadCredential, UploadError } from '@service-sdk/core'
import type { CachedCredential, CredentialsCache } from './credentials-cache.ts'
import { madeConnection, OssClient, type OssHttp, ossConnection } from './oss-adapter.ts'
import type { RequestContext } from './platform.ts'

/** The credential an upload's requests go out with, and the client bound to the upload for it. */
export interface Lease {
  readonly entry: CachedCredential
  readonly client: OssClient
}

/**
 * One upload attempt's view of the shared credentials. A new credential must reach the same
 * storage: a multipart upload cannot move to another endpoint, bucket or directory half-way.
 * The connection behind a lease is the credential's, shared with every other upload
 * (oss-adapter.ts); the lease binds it to this attempt's request context.
 */
export class OssSession {
  readonly #credentials: CredentialsCache
  readonly #http: OssHttp
  readonly #context: RequestContext
  readonly #logger: Logger
  #current: Lease | undefined
  #swapping: Promise<Lease> | undefined
  /** The credential the upload started with: its scope (endpoint, bucket, dir) is the upload's. */
  #scope: UploadCredential | undefined

  constructor(deps: {
    credentials: CredentialsCache
    http: OssHttp
    context: RequestContext
    logger: Logger
  }) {
    this.#credentials = deps.credentials
    this.#http = deps.http
    this.#context = deps.context
    this.#logger = deps.logger
  }

  /** The lease for the next request: a fresh credential replaces an old one before it can expire. */
  lease(): Promise<Lease> {
    if (this.#swapping) return this.#swapping
    const current = this.#current ?? this.#startNow()
    if (current && this.#credentials.isFresh(current.entry)) return Promise.resolve(current)
    return this.#swap(current, current ? 'age' : 'start')
  }

  /**
   * The first lease when the credential is cached and its connection made (every file of a batch
   * but the first few): taken at once, without a swap's `finally` and `#next`'s two waits.
   */
  #startNow(): Lease | undefined {
    const entry = this.#credentials.fresh()
    const connection = entry && madeConnection(entry.credential, this.#http)
    if (!entry || !connection) return undefined
    this.#scope = entry.credential
    this.#current = { entry, client: new OssClient(connection, this.#context) }
    return this.#current
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
    if (from && reason === 'expired') this.#credentials.invalidate(from.entry)
    const entry = await this.#credentials.get(this.#context.signal)
    if (this.#scope && !sameScope(this.#scope, entry.credential)) {
      throw new UploadError({
        code: 'credential_scope_changed',
        message:
          'sts-tmp issued credentials for another endpoint, bucket or directory in the middle of the upload: it cannot continue there. Start the upload again.',
      })
    }
    this.#scope ??= entry.credential
    const client =
      this.#current?.entry === entry
        ? this.#current.client
        : new OssClient(await ossConnection(entry.credential, this.#http), this.#context)
    this.#current = { entry, client }
    if (from) this.#logger.info('upload: switched to new STS credentials', { reason })
    return this.#current
  }
}

function sameScope(a: UploadCredential, b: UploadCredential): boolean {
  return a.endPoint === b.endPoint && a.bucket === b.bucket && a.dir === b.dir
}
