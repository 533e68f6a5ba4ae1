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

/** CORS for a page on another origin than the proxy. */
export interface UploadProxyCors {
  /** The page origins allowed, e.g. `['https://app.example.com']`, or a check of the `Origin` header. */
  origin: string | readonly string[] | ((origin: string) => boolean)
  /** Allow cookies (the browser client's `credentials: 'include'`). Default false. */
  credentials?: boolean
}

export interface UploadProxyOptions extends ClientOptions {
  /** `{open_url}` of the service. */
  openUrl: string
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
  /** Answer CORS for pages on these origins. Default: none (the page and the proxy share an origin). */
  cors?: UploadProxyCors
  /** Largest request body accepted, in bytes. Default 262,144 (a material-save of 100 assets is far below). */
  maxBodyBytes?: number
  /** The body form material-save is sent in to the service (see the client's option). Default `'top-level'`. */
  materialSaveForm?: MaterialSaveForm
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024

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
  const origin = options.cors?.origin
  if (
    options.cors !== undefined &&
    !(typeof origin === 'string' || typeof origin === 'function' || Array.isArray(origin))
  ) {
    issues.push({ path: 'cors.origin', message: 'must be an origin, a list of origins, or a function' })
  }
  if (origin === '*' && options.cors?.credentials) {
    issues.push({ path: 'cors', message: "origin '*' cannot be combined with credentials: list the origins" })
  }
  if (issues.length > 0) throw new ServiceValidationError('upload proxy options', issues)
}
