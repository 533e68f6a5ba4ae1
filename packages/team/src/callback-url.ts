import type { ValidationIssue } from '@service-sdk/core'

/**
 * The impersonation `callbackUrl` is where the login redirects. An absolute URL to another site
 * would make the login link an open redirect, so only same-site paths are accepted, or absolute
 * URLs on origins the caller listed explicitly.
 */
export function checkCallbackUrl(
  value: string,
  allowedOrigins: readonly string[],
): ValidationIssue | undefined {
  const issue = (message: string) => ({ path: 'callbackUrl', message })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value))
    return issue('must not contain control characters or backslashes')
  if (value.startsWith('/')) {
    // `//evil.example` is protocol-relative: another site.
    return value.startsWith('//') ? issue('must be a path on this site, not //host') : undefined
  }
  if (!URL.canParse(value))
    return issue('must be a path starting with "/" or an absolute URL on an allowed origin')
  const origin = new URL(value).origin
  return allowedOrigins.includes(origin)
    ? undefined
    : issue(`points to ${origin}, which is not in allowedCallbackOrigins (open redirect)`)
}
