import { ServiceValidationError, type ValidationIssue } from '../errors/errors.ts'
import { type ClientOptions, createTransport, type Transport, type TransportInit } from './transport.ts'

/** Internal: lets tests drive the transport with a fake clock. */
type Internal = Pick<TransportInit, 'clock'>

export interface TeamTransportOptions extends ClientOptions, Internal {
  /** `{base_url}` of the service, e.g. `https://example.com` (the client adds `/api/team/...`). */
  baseUrl: string | undefined
  /** The team API key from the team management dashboard. */
  apiKey: string | undefined
}

/**
 * The open API's token: sent as `Authorization: <type> <value>`. Both are typed `string |
 * undefined` so that `process.env.X` can be passed as it is: a missing one is refused when the
 * client is created, with a `ServiceValidationError` naming it.
 */
export interface OpenToken {
  /** The token type, e.g. `Bearer`. */
  type: string | undefined
  /** The token itself. Never logged, never in errors. */
  value: string | undefined
}

export interface OpenTransportOptions extends ClientOptions, Internal {
  /** `{open_url}` of the service. */
  openUrl: string | undefined
  token: OpenToken
}

export interface SubscriptionTransportOptions extends ClientOptions, Internal {
  openUrl: string | undefined
  /** The API key for the subscription endpoints under `/api/service`. */
  apiKey: string | undefined
}

/** Team API (area A): `Authorization: Bearer <TEAM_API_KEY>`, `{success, data}` envelope. */
export function createTeamTransport(options: TeamTransportOptions): Transport {
  check('team client options', [url('baseUrl', options.baseUrl), secret('apiKey', options.apiKey)])
  return createTransport({
    ...options,
    area: 'team',
    baseUrl: options.baseUrl as string,
    authorization: `Bearer ${options.apiKey}`,
    secrets: [options.apiKey as string],
    client: 'team',
  })
}

/** Open API paths under /open-api (area B): `Authorization: <TOKEN_TYPE> <TOKEN>`, `{code, result}` envelope. */
export function createOpenTransport(options: OpenTransportOptions): Transport {
  const token = options.token ?? { type: '', value: '' }
  check('open client options', [
    url('openUrl', options.openUrl),
    secret('token.type', token.type),
    secret('token.value', token.value),
  ])
  return createTransport({
    ...options,
    area: 'open',
    baseUrl: options.openUrl as string,
    authorization: `${token.type} ${token.value}`,
    secrets: [token.value as string],
    client: 'open',
  })
}

/** Subscription paths under /api/service (area B): `Authorization: Bearer <API_KEY>`. */
export function createSubscriptionTransport(options: SubscriptionTransportOptions): Transport {
  check('subscription client options', [url('openUrl', options.openUrl), secret('apiKey', options.apiKey)])
  return createTransport({
    ...options,
    area: 'subscription',
    baseUrl: options.openUrl as string,
    authorization: `Bearer ${options.apiKey}`,
    secrets: [options.apiKey as string],
    client: 'open',
  })
}

function check(what: string, issues: Array<ValidationIssue | undefined>): void {
  const found = issues.filter((i): i is ValidationIssue => i !== undefined)
  if (found.length > 0) throw new ServiceValidationError(what, found)
}

/** The issue of a required option that is `undefined`: most often an environment variable that is not set. */
const UNSET = 'is required, and is undefined (an environment variable that is not set?)'

function url(path: string, value: unknown): ValidationIssue | undefined {
  if (value === undefined) return { path, message: UNSET }
  if (typeof value !== 'string' || !URL.canParse(value)) return { path, message: 'must be an absolute URL' }
  const { protocol } = new URL(value)
  return protocol === 'http:' || protocol === 'https:'
    ? undefined
    : { path, message: 'must be an http(s) URL' }
}

// Header values: a missing key or one with whitespace/control characters (header injection) is refused.
function secret(path: string, value: unknown): ValidationIssue | undefined {
  if (value === undefined) return { path, message: UNSET }
  if (typeof value !== 'string' || value === '') return { path, message: 'is required' }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  return /[\s\u0000-\u001f\u007f]/.test(value)
    ? { path, message: 'must not contain spaces or control characters' }
    : undefined
}
