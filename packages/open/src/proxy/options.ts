import {
  type ClientOptions,
  type Id,
  type OpenToken,
  ServiceValidationError,
  type ValidationIssue,
} from '@service-sdk/core'
import type { MaterialSaveForm } from '../api.ts'

/** Who is uploading, as the integrator's `authorize` hook tells the proxy. */
export interface UploadProxyCaller {
  /**
   * A stable id of the user (or tenant) in your application. The proxy gives each id its own
   * upload directory and refuses to save objects from any other.
   */
  id: string
  /**
   * The team spaces this caller may see and save into (ids as org-info lists them). Omitted: every
   * space the server's token can write to. The personal space of the token is always allowed.
   */
  orgIds?: readonly Id[]
}

/**
 * The integrator's check of a browser request: the caller when it may upload, `false` when it is
 * not signed in (401). A hook that throws means signed in but not allowed (403). Read headers and
 * cookies only: the body is the proxy's.
 */
export type UploadProxyAuthorize = (
  request: Request,
) => UploadProxyCaller | false | Promise<UploadProxyCaller | false>

export interface UploadProxyOptions extends ClientOptions {
  /** `{open_url}` of the service. `undefined` (an unset environment variable) is refused with a `ServiceValidationError`. */
  openUrl: string | undefined
  /** The server's open API token: sent to the service only, never to the browser. */
  token: OpenToken
  /** Decides who may upload; runs before anything is sent to the service. */
  authorize: UploadProxyAuthorize
  /**
   * Key of the HMAC that names each caller's upload directory. Default: the token's value. Set it
   * when several proxies with different tokens share a bucket directory, or to keep directories
   * (and uploads in progress) across a token rotation.
   */
  secret?: string
  /**
   * Page origins besides the proxy's own that may call it, e.g. `['https://app.example.com']`, or
   * a check of the `Origin` header. The proxy answers their CORS preflights, and refuses a request
   * from any other origin (403 `origin_not_allowed`) before `authorize` runs. Default: none (only
   * pages on the proxy's own origin).
   */
  allowedOrigins?: readonly string[] | ((origin: string) => boolean)
  /** Let `allowedOrigins` send cookies (the browser client's `credentials: 'include'`). Default false. */
  allowCredentials?: boolean
  /**
   * How long each URL the proxy signs for a browser is valid, in seconds: requests are signed just
   * before they are sent, so this only has to cover the way to the store. Default 300, at most 3600.
   */
  signedUrlTtlSeconds?: number
  /**
   * How long the proxy reuses its STS credential for signing (sts-tmp does not say when it
   * expires). Default 300,000 ms.
   */
  credentialTtlMs?: number
  /** Largest request body accepted, in bytes. Default 262,144 (a material-save of 100 assets is far below). */
  maxBodyBytes?: number
  /** The body form material-save is sent in to the service (see the client's option). Default `'top-level'`. */
  materialSaveForm?: MaterialSaveForm
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024
export const DEFAULT_SIGNED_URL_TTL_SECONDS = 300
export const DEFAULT_CREDENTIAL_TTL_MS = 5 * 60_000

/** Throws `ServiceValidationError` for options the proxy cannot run with, before any request. */
export function checkProxyOptions(options: UploadProxyOptions): void {
  const issues: ValidationIssue[] = []
  if (typeof options.authorize !== 'function') {
    issues.push({ path: 'authorize', message: 'must be a function (request) => caller | false' })
  }
  if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret.length < 16)) {
    issues.push({ path: 'secret', message: 'must be a string of at least 16 characters' })
  }
  const max = options.maxBodyBytes
  if (max !== undefined && !(Number.isInteger(max) && max >= 1024)) {
    issues.push({ path: 'maxBodyBytes', message: 'must be an integer of at least 1024' })
  }
  const origins = options.allowedOrigins
  if (origins !== undefined && typeof origins !== 'function') {
    const valid =
      Array.isArray(origins) &&
      origins.every((o) => typeof o === 'string' && URL.canParse(o) && new URL(o).origin === o)
    if (!valid)
      issues.push({
        path: 'allowedOrigins',
        message:
          "must be a list of origins such as 'https://app.example.com' (no path, no '*'), or a function",
      })
  }
  const ttl = options.signedUrlTtlSeconds
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl >= 1 && ttl <= 3600)) {
    issues.push({ path: 'signedUrlTtlSeconds', message: 'must be an integer from 1 to 3600' })
  }
  const credentialTtl = options.credentialTtlMs
  if (credentialTtl !== undefined && !(Number.isFinite(credentialTtl) && credentialTtl >= 0)) {
    issues.push({ path: 'credentialTtlMs', message: 'must be a number of milliseconds, 0 or more' })
  }
  if (issues.length > 0) throw new ServiceValidationError('upload proxy options', issues)
}
