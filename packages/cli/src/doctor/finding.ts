/**
 * One row of `service-sdk doctor`: a check, its verdict, what was seen and what to do.
 * `skip`: the check did not run (not asked for, or it needs what an earlier check found wrong).
 */
export type Status = 'ok' | 'warn' | 'fail' | 'skip'

export interface Finding {
  check: string
  status: Status
  detail: string
  /** One line saying what to fix; `null` when there is nothing to do. */
  advice: string | null
}

export const ok = (check: string, detail: string, advice: string | null = null): Finding => ({
  check,
  status: 'ok',
  detail,
  advice,
})
export const warn = (check: string, detail: string, advice: string): Finding => ({
  check,
  status: 'warn',
  detail,
  advice,
})
export const fail = (check: string, detail: string, advice: string): Finding => ({
  check,
  status: 'fail',
  detail,
  advice,
})
export const skip = (check: string, detail: string, advice: string | null = null): Finding => ({
  check,
  status: 'skip',
  detail,
  advice,
})

/** What a check that needs settings says when some are missing: "not configured" (a warning). */
export function notConfigured(check: string, missing: string[], what: string): Finding {
  return warn(
    check,
    `not configured: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set`,
    `Set ${missing.join(' and ')} (or \`service-sdk config set\`) to check ${what}; for a local simulator: service-sdk sim --save-profile`,
  )
}

/** An error's one-line text, as much as a person needs (the SDK's messages are redacted already). */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0] ?? text
}
