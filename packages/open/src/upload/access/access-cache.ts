import { abortable } from '@service-sdk/core/internal'
import type { StorageAccess } from '../oss/access.ts'

/** An access to the store and when it was obtained (sts-tmp does not say when it expires). */
export interface CachedAccess {
  readonly access: StorageAccess
  readonly issuedAt: number
}

export interface AccessCache {
  /** The cached access while fresh; otherwise one call for a new one, shared by every caller waiting. */
  get(signal?: AbortSignal): Promise<CachedAccess>
  /** The cached access while fresh, without waiting; `undefined` when `get` would have to fetch. */
  fresh(): CachedAccess | undefined
  /** Whether an access is still young enough to start requests with. */
  isFresh(entry: CachedAccess): boolean
  /** OSS refused `entry` (expired, revoked): the next `get` fetches anew, unless someone already did. */
  invalidate(entry: CachedAccess): void
}

export interface AccessCacheOptions {
  /** How long an access is used for new requests after it was obtained. */
  ttlMs: number
  now?: () => number
}

/**
 * The store access shared by every upload of a client: an STS credential (one sts-tmp call while
 * fresh) or, through the upload proxy, where objects go and the proxy's signer. sts-tmp carries
 * no expiry, so an access is used for `ttlMs` after it was obtained (well inside any STS
 * lifetime) and then replaced before it can expire; an expiry OSS reports anyway invalidates it
 * early.
 */
export function createAccessCache(
  fetch: () => Promise<StorageAccess>,
  options: AccessCacheOptions,
): AccessCache {
  const now = options.now ?? Date.now
  let current: CachedAccess | undefined
  let inFlight: Promise<CachedAccess> | undefined

  const isFresh = (entry: CachedAccess) => now() - entry.issuedAt < options.ttlMs

  const issue = async (): Promise<CachedAccess> => {
    current = { access: await fetch(), issuedAt: now() }
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
      entry.access.remote?.refused()
      if (current === entry) current = undefined
    },
  }
}
