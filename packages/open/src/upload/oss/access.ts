import type { UploadCredential } from '@service-sdk/core'
import type { RequestSigner } from './request.ts'

/**
 * Where an upload's objects go, and who signs its requests: an STS credential held in this
 * process (a client with the open API token), or the upload proxy (a browser, which never holds
 * a credential). One is obtained for many uploads (`credentials-cache.ts`).
 */
export interface StorageAccess {
  /** `endPoint` as sts-tmp gives it: a host, or a URL with its scheme (the simulator). */
  readonly endPoint: string
  readonly bucket: string
  /** The directory keys go under (`''`: the bucket's root). */
  readonly dir: string
  /** The credential requests are signed with here. */
  readonly credential?: UploadCredential | undefined
  /** Or the signer elsewhere: each request is signed by the upload proxy. */
  readonly remote?: RemoteSigner | undefined
}

/** Requests signed elsewhere (the upload proxy). */
export interface RemoteSigner {
  readonly sign: RequestSigner
  /** The store refused what was signed as expired: the signer's next answers must use fresh credentials. */
  refused(): void
}

/** An STS credential from sts-tmp as the access it gives. */
export function credentialAccess(credential: UploadCredential): StorageAccess {
  const { endPoint, bucket, dir } = credential
  return { endPoint, bucket, dir, credential }
}
