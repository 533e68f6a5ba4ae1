import { ServiceResponseError, type UploadCredential } from '@service-sdk/core'
import { abortable } from '@service-sdk/core/internal'
import { loadSchemas } from '../load-schemas.ts'

/** A credential and when it was issued (sts-tmp does not say when it expires). */
export interface CachedCredential {
  readonly credential: UploadCredential
  readonly issuedAt: number
}

export interface CredentialsCache {
  /** The cached credential while fresh; otherwise one sts-tmp call, shared by every caller waiting. */
  get(signal?: AbortSignal): Promise<CachedCredential>
  /** The cached credential while fresh, without waiting; `undefined` when `get` would have to fetch. */
  fresh(): CachedCredential | undefined
  /** Whether a credential is still young enough to start requests with. */
  isFresh(entry: CachedCredential): boolean
  /** OSS refused `entry` (expired, revoked): the next `get` fetches anew, unless someone already did. */
  invalidate(entry: CachedCredential): void
}

export interface CredentialsCacheOptions {
  /** How long a credential is used for new requests after it was issued. */
  ttlMs: number
  now?: () => number
  /** Called with each credential issued (to register its secrets with the redactor). */
  onIssued?: (credential: UploadCredential) => void
}

/**
 * STS credentials shared by every upload of a client. sts-tmp carries no expiry, so a credential
 * is used for `ttlMs` after it was issued (well inside any STS lifetime) and then replaced before
 * it can expire; an expiry OSS reports anyway invalidates it early.
 */
export function createCredentialsCache(
  fetch: () => Promise<UploadCredential>,
  options: CredentialsCacheOptions,
): CredentialsCache {
  const now = options.now ?? Date.now
  let current: CachedCredential | undefined
  let inFlight: Promise<CachedCredential> | undefined

  const isFresh = (entry: CachedCredential) => now() - entry.issuedAt < options.ttlMs

  const issue = async (): Promise<CachedCredential> => {
    const credential = await fetch()
    const { uploadCredentialSchema } = await loadSchemas()
    const parsed = uploadCredentialSchema.safeParse(credential)
    if (!parsed.success) {
      throw new ServiceResponseError({
        status: 200,
        code: 'invalid_response',
        area: 'open',
        method: 'POST',
        path: '/open-api/standard/call/service/sts-tmp',
        message: `sts-tmp returned an incomplete credential (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}): the upload cannot start`,
        isRetryable: false,
      })
    }
    options.onIssued?.(credential)
    current = { credential, issuedAt: now() }
    return current
  }

  return {
    get(signal) {
      if (current && isFresh(current)) return Promise.resolve(current)
      // Not tied to one caller's signal: others may be waiting on the same call.
      inFlight ??= issue().finally(() => {
        inFlight = undefined
      })
      return signal ? abortable(inFlight, signal) : inFlight
    },
    fresh: () => (current && isFresh(current) ? current : undefined),
    isFresh,
    invalidate(entry) {
      if (current === entry) current = undefined
    },
  }
}
