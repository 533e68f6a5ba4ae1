import { ServiceResponseError } from '@service-sdk/core'
import type { Transport } from '@service-sdk/core/internal'
import type { RemoteSigner, StorageAccess } from '../oss/access.ts'
import type { OssRequest, SignedRequest } from '../oss/request.ts'

/** The upload proxy's signing call (not an operation of the service: see the proxy's docs). */
const SIGN = { method: 'POST', path: '/oss/sign' } as const
/** As many requests as the proxy signs in one call. */
const MAX_BATCH = 100

/** What the proxy answers a sign call with. */
interface SignAnswer {
  endPoint: string
  bucket: string
  dir: string
  signed: Array<{ url: string; headers: Record<string, string> }>
}

/** Sends `requests` (none: only where objects go) to the proxy; the answer checked by hand (no zod in a page). */
async function signCall(transport: Transport, requests: OssRequest[], renew: boolean): Promise<SignAnswer> {
  const body = renew ? { requests, renew } : { requests }
  // Signing is idempotent: a repeat only signs again.
  const answer = await transport.send<unknown>({ operation: SIGN, body, idempotent: true })
  const a = (typeof answer === 'object' && answer !== null ? answer : {}) as Partial<SignAnswer>
  const fine =
    typeof a.endPoint === 'string' &&
    typeof a.bucket === 'string' &&
    typeof a.dir === 'string' &&
    Array.isArray(a.signed) &&
    a.signed.length === requests.length &&
    a.signed.every((s) => typeof s?.url === 'string' && URL.canParse(s.url) && typeof s.headers === 'object')
  if (fine) return a as SignAnswer
  throw new ServiceResponseError({
    status: 200,
    code: 'invalid_response',
    area: 'open',
    method: SIGN.method,
    path: SIGN.path,
    message: 'The upload proxy answered oss/sign with something else than signed requests: check the proxy.',
    isRetryable: false,
  })
}

function signedRequest(signed: SignAnswer['signed'][number]): SignedRequest {
  const url = new URL(signed.url)
  const target = {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port,
    path: url.pathname + url.search,
    part: Number(url.searchParams.get('partNumber') ?? 0),
  }
  return { url: signed.url, target, headers: signed.headers }
}

interface Waiting {
  request: OssRequest
  resolve(signed: SignedRequest): void
  reject(error: unknown): void
}

/**
 * Requests signed by the upload proxy: those asked for in the same turn of the event loop (parts
 * started together, files of a batch) go in one call.
 */
class ProxySigner implements RemoteSigner {
  readonly #transport: Transport
  #waiting: Waiting[] = []
  #scheduled = false
  #renew = false

  constructor(transport: Transport) {
    this.#transport = transport
  }

  readonly sign = (request: OssRequest): Promise<SignedRequest> =>
    new Promise((resolve, reject) => {
      this.#waiting.push({ request, resolve, reject })
      if (this.#scheduled) return
      this.#scheduled = true
      setTimeout(() => this.#flush(), 0)
    })

  refused(): void {
    this.#renew = true
  }

  /** Where the caller's objects go (a sign call with no request). */
  async access(): Promise<StorageAccess> {
    const { endPoint, bucket, dir } = await signCall(this.#transport, [], this.#takeRenew())
    return { endPoint, bucket, dir, remote: this }
  }

  /** Whether the proxy must be told its credential may be stale: once, with the next call. */
  #takeRenew(): boolean {
    const renew = this.#renew
    this.#renew = false
    return renew
  }

  #flush(): void {
    this.#scheduled = false
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, MAX_BATCH)
      const requests = batch.map((w) => w.request)
      signCall(this.#transport, requests, this.#takeRenew()).then(
        (answer) => {
          for (const [i, w] of batch.entries())
            w.resolve(signedRequest(answer.signed[i] as SignAnswer['signed'][number]))
        },
        (error) => {
          for (const w of batch) w.reject(error)
        },
      )
    }
  }
}

/**
 * Store access through the upload proxy (`createOpenClient({ proxyUrl })`): where the caller's
 * objects go, and the proxy as the signer of every request. The browser holds no credential.
 */
export function proxyAccess(transport: Transport): () => Promise<StorageAccess> {
  const signer = new ProxySigner(transport)
  return () => signer.access()
}
