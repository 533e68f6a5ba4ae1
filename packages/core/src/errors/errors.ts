/**
 * One error hierarchy for the whole SDK. `instanceof` breaks when two copies of the SDK are
 * installed (or errors cross a realm), so every error carries a `Symbol.for` marker listing the
 * kinds it is, and each class has `isInstance()` that reads the marker.
 */
import type {
  AuthenticationCode,
  ConflictCode,
  InvalidRequestCode,
  NotFoundCode,
  PermissionCode,
  RateLimitCode,
  ResponseErrorCode,
  ServerErrorCode,
  ServiceApiErrorCode,
  UploadErrorCode,
} from './error-codes.ts'

const MARKER = Symbol.for('@service-sdk/error')

/** What an error serialises to: no secrets, no raw request. */
export interface ServiceErrorJSON {
  name: string
  code: string
  message: string
  isRetryable: boolean
  [field: string]: unknown
}

/** What `isInstance` checks: the error's name, kept across copies of the package. */
export interface ErrorKind {
  readonly kind: string
}

export interface ServiceErrorOptions {
  code: string
  isRetryable?: boolean
  cause?: unknown
  /** The service's traceId of the failed answer (default: the cause's, when it is a `ServiceError`). */
  traceId?: string | undefined
  /** The object storage's request id (default: the cause's, when it is a `ServiceError`). */
  requestId?: string | undefined
}

/** The support ids of a cause that is a `ServiceError` (of any copy of the SDK). */
function causeIds(cause: unknown): { traceId?: unknown; requestId?: unknown } {
  return typeof cause === 'object' && cause !== null && MARKER in cause
    ? (cause as { traceId?: unknown; requestId?: unknown })
    : {}
}
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

export class ServiceError extends Error {
  static readonly kind: string = 'ServiceError'
  declare readonly [MARKER]: readonly string[]
  /** A stable, machine-readable code: the service's code where it gave one. */
  readonly code: string
  /** Whether the same request may succeed if sent again later. */
  readonly isRetryable: boolean
  /**
   * The service's traceId of the failed answer (API errors; the open area sends one with every
   * answer), or of the failure that caused this one; `undefined` when there is none.
   */
  readonly traceId: string | undefined
  /**
   * The object storage's `x-oss-request-id` of the failed request (upload errors), or of the
   * failure that caused this one; `undefined` when there is none.
   */
  readonly requestId: string | undefined

  constructor(message: string, options: ServiceErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    const kinds: string[] = []
    for (let c: unknown = new.target; typeof c === 'function' && 'kind' in c; c = Object.getPrototypeOf(c)) {
      kinds.push((c as ErrorKind).kind)
    }
    Object.defineProperty(this, MARKER, { value: kinds })
    this.name = kinds[0] ?? 'ServiceError'
    this.code = options.code
    this.isRetryable = options.isRetryable ?? false
    const cause = causeIds(options.cause)
    this.traceId = text(options.traceId) ?? text(cause.traceId)
    this.requestId = text(options.requestId) ?? text(cause.requestId)
  }

  /**
   * The id to quote to support for this failure, whichever kind it is: the service's `traceId`,
   * else the object storage's `requestId`; `undefined` when the failure has neither (bad input, a
   * network failure before any answer).
   */
  get supportId(): string | undefined {
    return this.traceId ?? this.requestId
  }

  /** `instanceof` that also works across copies of the SDK. */
  static isInstance<T extends abstract new (...args: never[]) => ServiceError>(
    this: T & ErrorKind,
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false
    const kinds = (value as { [MARKER]?: unknown })[MARKER]
    // Packages that cannot depend on core (the selector) mark their errors with `true`.
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance was called on
    if (kinds === true) return this.kind === 'ServiceError'
    // biome-ignore lint/complexity/noThisInStatic: as above
    return Array.isArray(kinds) && kinds.includes(this.kind)
  }

  toJSON(): ServiceErrorJSON {
    const ids = {
      ...(this.traceId === undefined ? {} : { traceId: this.traceId }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
      ...(this.supportId === undefined ? {} : { supportId: this.supportId }),
    }
    return { name: this.name, code: this.code, message: this.message, isRetryable: this.isRetryable, ...ids }
  }
}

/** Which API a request went to. */
export type ServiceArea = 'team' | 'open' | 'subscription'

export interface ServiceApiErrorInit {
  status: number
  code: ServiceApiErrorCode
  message: string
  area: ServiceArea
  method: string
  /** The request path, without query string. */
  path: string
  traceId?: string | undefined
  /** The parsed response body, with secrets redacted. */
  body?: unknown
  retryAfterMs?: number | undefined
  isRetryable?: boolean
}

/** The service answered, and the answer was a failure. */
export class ServiceApiError extends ServiceError {
  static override readonly kind: string = 'ServiceApiError'
  /** The service's code where it gave one (`MB100003`...), else the status named (`not_found`...). */
  declare readonly code: ServiceApiErrorCode
  readonly status: number
  readonly area: ServiceArea
  readonly method: string
  readonly path: string
  readonly body: unknown
  /** From `Retry-After`, when the service sent one. */
  readonly retryAfterMs: number | undefined

  constructor(init: ServiceApiErrorInit) {
    super(init.message, {
      code: init.code,
      isRetryable: init.isRetryable ?? retryableStatus(init.status),
      traceId: init.traceId,
    })
    this.status = init.status
    this.area = init.area
    this.method = init.method
    this.path = init.path
    this.body = init.body
    this.retryAfterMs = init.retryAfterMs
  }

  override toJSON(): ServiceErrorJSON {
    return {
      ...super.toJSON(),
      status: this.status,
      area: this.area,
      method: this.method,
      path: this.path,
      traceId: this.traceId,
      body: this.body,
    }
  }
}

function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500
}

/** 400, or the open area's MB100001 (bad parameters) / MB100004 (unsupported). */
export class ServiceInvalidRequestError extends ServiceApiError {
  static override readonly kind: string = 'ServiceInvalidRequestError'
  declare readonly code: InvalidRequestCode
}

/** 401: the key or token is missing, wrong, or revoked. */
export class ServiceAuthenticationError extends ServiceApiError {
  static override readonly kind: string = 'ServiceAuthenticationError'
  declare readonly code: AuthenticationCode
}

export type PermissionReason = 'domain-not-whitelisted' | 'seat-limit' | 'capability' | 'other'

/** 403, or MB100002: authenticated, but not allowed. */
export class ServicePermissionError extends ServiceApiError {
  static override readonly kind: string = 'ServicePermissionError'
  declare readonly code: PermissionCode
  readonly reason: PermissionReason
  /** The email domain the team's whitelist refused, when that was the reason. */
  readonly domain: string | undefined

  constructor(init: ServiceApiErrorInit & { reason?: PermissionReason; domain?: string | undefined }) {
    super(init)
    this.reason = init.reason ?? 'other'
    this.domain = init.domain
  }

  override toJSON(): ServiceErrorJSON {
    return { ...super.toJSON(), reason: this.reason, domain: this.domain }
  }
}

/** 404, or MB100003. */
export class ServiceNotFoundError extends ServiceApiError {
  static override readonly kind: string = 'ServiceNotFoundError'
  declare readonly code: NotFoundCode
}

/** 409: the thing exists already (a user, a membership). */
export class ServiceConflictError extends ServiceApiError {
  static override readonly kind: string = 'ServiceConflictError'
  declare readonly code: ConflictCode
}

/** 429, or MS100003 (busy): refused without being acted on; retry after a pause. */
export class ServiceRateLimitError extends ServiceApiError {
  static override readonly kind: string = 'ServiceRateLimitError'
  declare readonly code: RateLimitCode
}

/** 5xx, or MS100001: the service failed. */
export class ServiceServerError extends ServiceApiError {
  static override readonly kind: string = 'ServiceServerError'
  declare readonly code: ServerErrorCode
}

/** A response that is not what `spec/openapi.yaml` describes (not JSON, no envelope, wrong shape). */
export class ServiceResponseError extends ServiceApiError {
  static override readonly kind: string = 'ServiceResponseError'
  declare readonly code: ResponseErrorCode
}

/** The request could not be completed over the network. */
export class ServiceConnectionError extends ServiceError {
  static override readonly kind: string = 'ServiceConnectionError'
  declare readonly code: 'connection_error'
  /**
   * `false` only when the request provably never reached the server (connection refused, name
   * not resolved): then even a non-idempotent request may be sent again.
   */
  readonly reachedServer: boolean | 'unknown'

  constructor(message: string, options: { reachedServer: boolean | 'unknown'; cause?: unknown }) {
    super(message, { code: 'connection_error', isRetryable: true, cause: options.cause })
    this.reachedServer = options.reachedServer
  }

  override toJSON(): ServiceErrorJSON {
    return { ...super.toJSON(), reachedServer: this.reachedServer }
  }
}

/** One attempt took longer than `timeoutMs`. A caller's abort is not a timeout: it rejects with the signal's reason. */
export class ServiceTimeoutError extends ServiceError {
  static override readonly kind: string = 'ServiceTimeoutError'
  declare readonly code: 'timeout'
  readonly timeoutMs: number

  constructor(message: string, options: { timeoutMs: number }) {
    super(message, { code: 'timeout', isRetryable: true })
    this.timeoutMs = options.timeoutMs
  }

  override toJSON(): ServiceErrorJSON {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs }
  }
}

export interface ValidationIssue {
  /** Where in the input, e.g. `materials.2.size`. */
  path: string
  message: string
}

/** Bad input, caught before any request was sent. */
export class ServiceValidationError extends ServiceError {
  static override readonly kind: string = 'ServiceValidationError'
  declare readonly code: 'validation_error'
  readonly issues: readonly ValidationIssue[]

  constructor(what: string, issues: readonly ValidationIssue[]) {
    const list = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
    super(`Invalid ${what}: ${list}. Nothing was sent.`, { code: 'validation_error' })
    this.issues = issues
  }

  override toJSON(): ServiceErrorJSON {
    return { ...super.toJSON(), issues: this.issues }
  }
}

export interface UploadErrorInit {
  message: string
  code: UploadErrorCode
  /** The object-storage error code (e.g. `SignatureDoesNotMatch`), when the storage answered. */
  ossCode?: string | undefined
  /** The multipart part that failed, when one did. */
  partNumber?: number | undefined
  /** The storage's `x-oss-request-id`, for support. */
  requestId?: string | undefined
  status?: number | undefined
  isRetryable?: boolean
  cause?: unknown
}

/** The object upload (before the asset was saved) failed. */
export class UploadError extends ServiceError {
  static override readonly kind: string = 'UploadError'
  declare readonly code: UploadErrorCode
  readonly ossCode: string | undefined
  readonly partNumber: number | undefined
  readonly status: number | undefined

  constructor(init: UploadErrorInit) {
    super(init.message, {
      code: init.code,
      isRetryable: init.isRetryable ?? false,
      cause: init.cause,
      requestId: init.requestId,
    })
    this.ossCode = init.ossCode
    this.partNumber = init.partNumber
    this.status = init.status
  }

  override toJSON(): ServiceErrorJSON {
    return {
      ...super.toJSON(),
      ossCode: this.ossCode,
      partNumber: this.partNumber,
      requestId: this.requestId,
      status: this.status,
    }
  }
}
