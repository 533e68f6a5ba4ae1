import type { UploadCredential } from '@service-sdk/core'

/** The proxy's own STS credential: fetched with the server's token, never sent to a browser. */
export interface ProxyCredentials {
  /**
   * The credential while fresh, else a new one (one sts-tmp call for every request waiting).
   * `renew`: a browser says the store refused a signature as expired; honoured only for a
   * credential older than `RENEW_AFTER_MS`, so no caller can make the proxy call sts-tmp at will.
   */
  get(renew?: boolean): Promise<UploadCredential>
}

/** A credential this young is not replaced on a browser's word. */
export const RENEW_AFTER_MS = 30_000

export function createProxyCredentials(
  fetch: () => Promise<UploadCredential>,
  ttlMs: number,
  now: () => number = Date.now,
): ProxyCredentials {
  let current: { credential: UploadCredential; at: number } | undefined
  let inFlight: Promise<UploadCredential> | undefined
  const issue = () =>
    (inFlight ??= fetch()
      .then((credential) => {
        current = { credential, at: now() }
        return credential
      })
      .finally(() => {
        inFlight = undefined
      }))
  return {
    get(renew = false) {
      const age = current ? now() - current.at : Number.POSITIVE_INFINITY
      const stale = age >= ttlMs || (renew && age >= RENEW_AFTER_MS)
      return current && !stale ? Promise.resolve(current.credential) : issue()
    },
  }
}
