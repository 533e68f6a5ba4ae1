/**
 * Secrets (API keys, tokens, STS secrets, login URLs) must never reach logs, error messages or
 * serialised errors. Two nets: values under secret-looking keys are replaced wherever they sit,
 * and the exact secret values a client was configured with are scrubbed from any string.
 */
export const REDACTED = '[REDACTED]'

const SECRET_KEY =
  /^(?:authorization|password|passwd|api[-_]?key|.*secret.*|.*token|x-oss-security-token|signature|loginurl|credentials?)$/i

// Query parameters that carry secrets in URLs (impersonation login, presigned OSS URLs).
const SECRET_PARAM =
  /([?&](?:token|security-token|signature|ossaccesskeyid|x-oss-signature|x-oss-credential)=)[^&\s"'#]+/gi

// `Bearer abc`, `OSS ak:sig` and `<TOKEN_TYPE> <TOKEN>` forms seen in headers echoed back.
const AUTH_VALUE = /\b(Bearer|OSS|OSS4-HMAC-SHA256)\s+[^\s"',]+/g

export interface Redactor {
  /** A deep copy of `value` with secrets replaced by `[REDACTED]`. */
  <T>(value: T): T
  /** Remember more secret values (e.g. STS credentials once issued). */
  add(...secrets: ReadonlyArray<string | undefined>): void
}

/** A redactor that also scrubs the given secret values (values shorter than 4 characters are ignored). */
export function createRedactor(secrets: ReadonlyArray<string | undefined> = []): Redactor {
  const known = new Set<string>()
  const redactor = (<T>(value: T): T => redactValue(value, known, 0) as T) as Redactor
  redactor.add = (...more) => {
    for (const s of more) if (s && s.length >= 4) known.add(s)
  }
  redactor.add(...secrets)
  return redactor
}

function redactString(text: string, known: ReadonlySet<string>): string {
  let out = text.replace(SECRET_PARAM, `$1${REDACTED}`).replace(AUTH_VALUE, `$1 ${REDACTED}`)
  for (const secret of known) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED)
    // Secrets also travel URL-encoded (login URLs, query strings).
    const encoded = encodeURIComponent(secret)
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED)
  }
  return out
}

function redactValue(value: unknown, known: ReadonlySet<string>, depth: number): unknown {
  if (typeof value === 'string') return redactString(value, known)
  if (typeof value !== 'object' || value === null) return value
  if (depth > 32) return REDACTED
  if (Array.isArray(value)) return value.map((v) => redactValue(v, known, depth + 1))
  if (value instanceof Error) {
    // biome-ignore lint/plugin: a copy of the caller's error with secrets removed, not an error of ours
    const copy = new Error(redactString(value.message, known))
    copy.name = value.name
    return copy
  }
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      SECRET_KEY.test(key) && v !== null && v !== undefined && v !== ''
        ? REDACTED
        : redactValue(v, known, depth + 1)
  }
  return out
}
