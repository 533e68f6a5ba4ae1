import { type UploadCredential, UploadError } from '@service-sdk/core'
import { nodeSigning } from '../../src/upload/node/signing.ts'
import { credentialAccess } from '../../src/upload/oss/access.ts'
import { OssClient, ossConnection } from '../../src/upload/oss/connection.ts'
import { isOssFailure } from '../../src/upload/oss/failure.ts'
import type { OssHttp, OssHttpRequest, OssHttpResponse, RequestContext } from '../../src/upload/oss/types.ts'
import { aliOssConnection } from './ali-oss-operations.ts'

// ali-oss as the oracle of the requests the SDK makes without it: the same operation runs once
// through a connection on ali-oss and once through the SDK's own OSS layer (src/upload/oss, signed
// as on Node), against the same answers; what each hands the HTTP layer and what each makes of
// the answers must agree.

/** One answer of the HTTP layer. */
export interface Answer {
  status: number
  headers?: Record<string, string>
  body?: string
}

/** What one request handed the HTTP layer, header values as they go on the wire. */
export interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  content: unknown
}

/** An HTTP layer that records each request and answers with `answer`. */
export function scriptedHttp(answer: (url: string, request: OssHttpRequest) => Answer) {
  const sent: Sent[] = []
  const http: OssHttp = {
    async request(url, request): Promise<OssHttpResponse> {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]))
      sent.push({ url, method: request.method, headers, content: request.content })
      const { status, headers: answered = {}, body = '' } = answer(url, request)
      return { status, headers: answered, data: Buffer.from(body) }
    },
  }
  return { http, sent }
}

export const context = (): RequestContext => ({
  signal: new AbortController().signal,
  timeoutMs: 5_000,
  onBodyBytes: () => {},
})

/** What an operation resolved with, or the fields of its failure that callers see. */
export type Outcome<T> = { value: T } | { failure: Record<string, unknown> }

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await run() }
  } catch (error) {
    if (UploadError.isInstance(error)) return { failure: { code: error.code, message: error.message } }
    if (!isOssFailure(error)) return { failure: { unexpected: String(error) } }
    const { kind, code, ossCode, status, requestId, message } = error
    return { failure: { kind, code, ossCode, status, requestId, message } }
  }
}

/**
 * Runs `operation` through ali-oss and through the signed requests, each on a fresh connection
 * of `credential` whose HTTP layer answers with `answer`: the requests sent and the outcomes.
 */
export async function bothWays<T>(
  credential: () => UploadCredential,
  answer: (url: string, request: OssHttpRequest) => Answer,
  operation: (client: OssClient) => Promise<T>,
) {
  const run = async (signed: boolean) => {
    const { http, sent } = scriptedHttp(answer)
    const result = await outcome(async () => {
      const connection = signed
        ? ossConnection(credentialAccess(credential()), http, nodeSigning)
        : aliOssConnection(credential(), http)
      return operation(new OssClient(connection, context()))
    })
    return { sent, result }
  }
  return { aliOss: await run(false), signed: await run(true) }
}
