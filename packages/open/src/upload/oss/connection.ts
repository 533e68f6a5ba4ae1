import { ServiceError, type UploadCredential, UploadError } from '@service-sdk/core'
import { createRedactor } from '@service-sdk/core/internal'
import type { StorageAccess } from './access.ts'
import { failureOf, isOssFailure } from './failure.ts'
import { hmacSha1 } from './hmac.ts'
import { NoAnswerError } from './no-answer.ts'
import { SignedOss } from './operations.ts'
import { localSigner, type OssOptions, objectSigner, type SignerSetup } from './request.ts'
import type {
  DonePart,
  OpenUpload,
  OssBody,
  OssHttp,
  OssOperations,
  RequestContext,
  UploadsMarker,
} from './types.ts'

/**
 * `endPoint` from sts-tmp: a bare host (`oss-cn-hangzhou.aliyuncs.com`, served over https) or,
 * from the simulator, a URL with its scheme.
 */
export function endpointUrl(endPoint: string): string {
  return /^https?:\/\//i.test(endPoint) ? endPoint : `https://${endPoint}`
}

/** A connection: an access's operations and the redactor of its secrets. */
export interface OssConnection {
  readonly operations: OssOperations
  readonly redact: (text: string) => string
}

/** What a platform adds to the requests it signs (the content-type table, Node's User-Agent). */
export type SigningPlatform = Omit<SignerSetup, 'hmac'>

/** Per HTTP layer (one per client's platform), the connection made for each access. */
const connections = new WeakMap<OssHttp, WeakMap<StorageAccess, OssConnection>>()

/**
 * The connection of `access`, made once and shared by every upload that goes out with it: signing
 * setup and the operations object are per access, not per upload (many small files spend a good
 * share of their CPU there). A credential the object store cannot be addressed with is refused to
 * every upload that gets it, before anything is sent.
 */
export function ossConnection(
  access: StorageAccess,
  http: OssHttp,
  platform: SigningPlatform,
): OssConnection {
  let byAccess = connections.get(http)
  if (!byAccess) {
    byAccess = new WeakMap()
    connections.set(http, byAccess)
  }
  let connection = byAccess.get(access)
  if (!connection) {
    connection = connect(access, http, platform)
    byAccess.set(access, connection)
  }
  return connection
}

function connect(access: StorageAccess, http: OssHttp, platform: SigningPlatform): OssConnection {
  const { credential, remote } = access
  const redact = createRedactor(
    credential ? [credential.accessKeySecret, credential.securityToken, credential.accessKeyId] : [],
  )
  if (!credential) {
    if (!remote) throw refusedCredential('neither a credential nor a signer')
    return { operations: new SignedOss(remote.sign, http, redact), redact }
  }
  const options = checkedOptions(credential)
  if (typeof options === 'string') throw refusedCredential(redact(options))
  const signer = objectSigner(options, { ...platform, hmac: hmacSha1(options.accessKeySecret) })
  return { operations: new SignedOss(localSigner(signer), http, redact), redact }
}

/** The error of a credential the object store cannot be addressed with; `reason` is already redacted. */
export function refusedCredential(reason: string): UploadError {
  return new UploadError({
    code: 'invalid_credentials',
    message: `sts-tmp returned credentials the object-storage client cannot use (${reason}): check the service behind sts-tmp.`,
  })
}

/**
 * The credential as ali-oss's constructor checks and keeps it (its `initOptions`), or why it
 * refuses it: keys required, the bucket name's pattern, the endpoint's characters and scheme.
 * A missing bucket, which ali-oss refuses at each request instead, is refused here too.
 */
export function checkedOptions(credential: UploadCredential): OssOptions | string {
  const { accessKeyId, accessKeySecret, bucket, securityToken } = credential
  if (!accessKeyId || !accessKeySecret) return 'require accessKeyId, accessKeySecret'
  if (!bucket) return 'Please create a bucket first'
  if (!/^[a-z0-9_][a-z0-9-_]{1,61}[a-z0-9_]$/.test(bucket))
    return 'The bucket must be conform to the specifications'
  const endpoint = endpointUrl(credential.endPoint)
  if (!/^[a-zA-Z0-9._:/-]+$/.test(endpoint) || !URL.canParse(endpoint))
    return 'The endpoint must be conform to the specifications'
  const { protocol, host, hostname } = new URL(endpoint)
  if (protocol !== 'http:' && protocol !== 'https:') return 'Endpoint protocol must be http or https.'
  if (host === '') return 'The endpoint must be conform to the specifications'
  return {
    endpoint: { protocol, host, hostname },
    bucket,
    accessKeyId: accessKeyId.trim(),
    accessKeySecret: accessKeySecret.trim(),
    stsToken: securityToken,
  }
}

/**
 * The operations of one upload attempt on a shared connection: each request carries the
 * attempt's context, each failure becomes an `OssFailure`. Cheap to make (one per attempt and
 * access).
 */
export class OssClient {
  readonly #ops: OssOperations
  readonly #redact: (text: string) => string
  readonly #ctx: RequestContext

  constructor(connection: OssConnection, context: RequestContext) {
    this.#ops = connection.operations
    this.#redact = connection.redact
    this.#ctx = context
  }

  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  put(key: string, body: OssBody, type?: string): Promise<string | undefined> {
    return this.#translated(() => this.#ops.put(key, body, this.#ctx, type))
  }

  initiate(key: string, type?: string): Promise<string> {
    return this.#translated(() => this.#ops.initiate(key, this.#ctx, type))
  }

  /** Resolves with the part's ETag. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: OssBody): Promise<string> {
    return this.#translated(() => this.#ops.uploadPart(key, uploadId, partNumber, body, this.#ctx))
  }

  /** Resolves with the object's CRC-64 as the storage reports it (`undefined` when it does not). */
  complete(key: string, uploadId: string, parts: readonly DonePart[]): Promise<string | undefined> {
    return this.#translated(() => this.#ops.complete(key, uploadId, parts, this.#ctx))
  }

  /** DeleteObject. */
  remove(key: string): Promise<void> {
    return this.#translated(() => this.#ops.remove(key, this.#ctx))
  }

  /** Every multipart upload under `prefix` (ListMultipartUploads, all pages). */
  listUploads(prefix: string): Promise<OpenUpload[]> {
    return this.#translated(async () => {
      const found: OpenUpload[] = []
      let after: UploadsMarker | undefined
      do {
        const page = await this.#ops.listUploadsPage(prefix, after, this.#ctx)
        found.push(...page.uploads)
        after = page.next
      } while (after)
      return found
    })
  }

  abort(key: string, uploadId: string): Promise<void> {
    return this.#translated(() => this.#ops.abort(key, uploadId, this.#ctx))
  }

  /** Every part the server holds for the upload, ascending. */
  listParts(key: string, uploadId: string): Promise<DonePart[]> {
    return this.#translated(async () => {
      const parts: DonePart[] = []
      let after: string | undefined
      do {
        const page = await this.#ops.listPartsPage(key, uploadId, after, this.#ctx)
        parts.push(...page.parts)
        after = page.next
      } while (after !== undefined)
      return parts.sort((a, b) => a.number - b.number)
    })
  }

  /** The object's size, or `undefined` when there is no such object. */
  async size(key: string): Promise<number | undefined> {
    try {
      return await this.#translated(() => this.#ops.size(key, this.#ctx))
    } catch (error) {
      if (isOssFailure(error) && error.status === 404) return undefined
      throw error
    }
  }

  async #translated<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call()
    } catch (error) {
      // A signer's refusal (the upload proxy's answer) is the SDK's own error already.
      if (ServiceError.isInstance(error) && !(error instanceof NoAnswerError)) throw error
      throw failureOf(error, this.#redact)
    }
  }
}
