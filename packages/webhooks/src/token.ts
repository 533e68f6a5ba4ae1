import { randomBytes } from 'node:crypto'
import { ServiceValidationError } from '@service-sdk/core'

/**
 * The service signs nothing, so the receiver URL itself is the credential: its last path segment
 * is a capability token. URL-safe characters only, so it never needs escaping; at least 22 of
 * them (22 base64url characters carry 132 bits).
 */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{22,512}$/

/** A fresh capability token: 32 random bytes (256 bits), base64url. */
export function generateWebhookToken(): string {
  return randomBytes(32).toString('base64url')
}

export interface TokenCheck {
  /** Whether `candidate` is one of the current tokens. Constant time in the candidate's content. */
  (candidate: string | undefined): boolean
  /** The configured tokens, for the redactor; never logged. */
  readonly secrets: readonly string[]
}

/**
 * `token: false` disables the check; it must be said explicitly. Several tokens make rotation
 * possible: add the new one, move the subscriptions, then drop the old one.
 */
export function tokenCheck(token: string | readonly string[] | false | undefined): TokenCheck {
  if (token === false) return Object.assign(() => true, { secrets: [] as string[] })
  const tokens = typeof token === 'string' ? [token] : token
  if (!tokens || tokens.length === 0) {
    throw new ServiceValidationError('createWebhookReceiver options', [
      {
        path: 'token',
        message:
          'createWebhookReceiver needs `token`: the last path segment of the URL you subscribe (generate one with generateWebhookToken()). Pass `token: false` only if something else authenticates the sender',
      },
    ])
  }
  for (const [i, t] of tokens.entries()) {
    if (typeof t !== 'string' || !TOKEN_SHAPE.test(t)) {
      // The message describes the token without repeating it.
      throw new ServiceValidationError('createWebhookReceiver options', [
        {
          path: typeof token === 'string' ? 'token' : `token[${i}]`,
          message: `token #${i + 1} is not usable: it must be 22 to 512 characters of A-Z a-z 0-9 _ - (at least 128 bits of randomness; use generateWebhookToken())`,
        },
      ])
    }
  }
  const check = (candidate: string | undefined): boolean => {
    const given = candidate ?? ''
    let ok = false
    for (const t of tokens) ok = sameToken(given, t) || ok
    return ok
  }
  return Object.assign(check, { secrets: [...tokens] })
}

/**
 * Whether `candidate` is `token`, in time that depends on the token's length only: every
 * character of the token is compared, with no early exit, and the lengths are compared the same
 * way. Hand-written rather than hashing both sides for `crypto.timingSafeEqual` (equal lengths):
 * Node 24's one-shot `hash()` took 1.6 µs a call on a quiet 2-core machine (4 µs under load),
 * against 29 to 90 µs for a no-op handler's whole request (bench/webhooks); this loop took 0.1 µs.
 */
function sameToken(candidate: string, token: string): boolean {
  let diff = candidate.length ^ token.length
  // Past the candidate's end charCodeAt gives NaN, which `| 0` turns into 0: no branch.
  for (let i = 0; i < token.length; i++) diff |= (candidate.charCodeAt(i) | 0) ^ token.charCodeAt(i)
  return diff === 0
}

/** The last non-empty segment of a URL path (the query string is ignored). */
export function lastPathSegment(path: string): string | undefined {
  const q = path.indexOf('?')
  let end = q === -1 ? path.length : q
  if (end > 0 && path.charCodeAt(end - 1) === 47 /* / */) end--
  const start = path.lastIndexOf('/', end - 1) + 1
  return start < end ? path.slice(start, end) : undefined
}
