/**
 * Failed OSS requests, translated from what `operations.ts` reads of a failed answer (the fields
 * ali-oss's errors carry) or from our HTTP layer's `NoAnswerError`: no request headers, no
 * secrets, and a kind the retry loop (oss-call.ts) acts on.
 */

/** The OSS codes that mean "these credentials are no longer good": get fresh ones and go on. */
const EXPIRED = new Set(['SecurityTokenExpired', 'InvalidAccessKeyId', 'InvalidSecurityToken'])

export type FailureKind = 'expired' | 'retryable' | 'fatal'

/** A failed OSS request, translated: no request headers, no secrets. */
export class OssFailure extends Error {
  override name = 'OssFailure'
  readonly kind: FailureKind
  /** OSS's error code (`InternalError`, `NoSuchUpload`...), or ours for no answer (`connection_error`, `timeout`). */
  readonly code: string
  /** Set when OSS answered. */
  readonly ossCode: string | undefined
  readonly status: number | undefined
  readonly requestId: string | undefined

  constructor(init: {
    kind: FailureKind
    code: string
    message: string
    ossCode?: string | undefined
    status?: number | undefined
    requestId?: string | undefined
  }) {
    super(init.message)
    this.kind = init.kind
    this.code = init.code
    this.ossCode = init.ossCode
    this.status = init.status
    this.requestId = init.requestId
  }
}

export function isOssFailure(error: unknown, ossCode?: string): error is OssFailure {
  return error instanceof OssFailure && (ossCode === undefined || error.ossCode === ossCode)
}

/**
 * Any rejection (our HTTP layer's `NoAnswerError`, or `{ status, code, message, requestId }` read
 * from an answer) as an `OssFailure`, classified for the retry loop.
 */
export function failureOf(error: unknown, redact: (text: string) => string): OssFailure {
  if (error instanceof OssFailure) return error
  const raw = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown
    code?: unknown
    status?: unknown
    requestId?: unknown
    message?: unknown
  }
  const status = typeof raw.status === 'number' ? raw.status : undefined
  const code = typeof raw.code === 'string' && raw.code !== '' ? raw.code : undefined
  const message = redact(typeof raw.message === 'string' ? raw.message : String(error))
  const requestId = typeof raw.requestId === 'string' && raw.requestId !== '' ? raw.requestId : undefined
  // No answer: our HTTP layer rejected (-1 network, -2 timeout).
  if (status === -1 || status === -2) {
    return new OssFailure({
      kind: 'retryable',
      code: status === -2 ? 'timeout' : 'connection_error',
      message: status === -2 ? 'the request timed out' : `the connection failed (${message})`,
    })
  }
  if (status === undefined) {
    return new OssFailure({ kind: 'fatal', code: 'upload_failed', message })
  }
  const kind: FailureKind =
    code !== undefined && EXPIRED.has(code)
      ? 'expired'
      : status >= 500 || status === 408 || status === 429 || code === 'RequestTimeout'
        ? 'retryable'
        : 'fatal'
  return new OssFailure({
    kind,
    code: code ?? `http_${status}`,
    ossCode: code,
    status,
    requestId,
    message: `the object storage answered ${status}${code ? ` ${code}` : ''}: ${message}`,
  })
}

/**
 * A successful answer the engine cannot read (not the XML document of the operation, or without
 * the header it needs): fatal and without a status, as ali-oss's failure to parse one was (the
 * status says what the storage answered, not what went wrong).
 */
export function unreadableAnswer(op: string, status: number, requestId: string | undefined): OssFailure {
  return new OssFailure({
    kind: 'fatal',
    code: 'upload_failed',
    requestId,
    message: `the object storage's answer to ${op} (status ${status}) could not be read`,
  })
}
