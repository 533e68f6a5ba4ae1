/**
 * The selector cannot import `@service-sdk/core` (its whole bundle must stay under 3 KB), so it
 * defines its own error. It carries core's cross-copy marker, set to `true`, so
 * `ServiceError.isInstance(e)` from core also recognises it.
 */
const MARKER = Symbol.for('@service-sdk/error')

export type SelectorErrorCode =
  /** The page did not send its loaded message within `timeoutMs`. */
  | 'timeout'
  /** The caller's `signal` aborted. */
  | 'aborted'
  /** The page reported a failure (flow 1: the upload failed). */
  | 'error'
  /** The page sent a message of a known type that cannot be used (a success whose ids are unusable). */
  | 'invalid_message'
  /** `destroy()` was called while the selector was open, or `open()` after it. */
  | 'destroyed'
  /** Bad options or arguments, detected before anything is shown; `issues` says which. */
  | 'validation_error'
  /** No DOM: called under Node or during SSR. */
  | 'unsupported'

/** One problem with the options: where, and what is wrong (the shape of core's `ValidationIssue`). */
export interface SelectorIssue {
  /** The option, e.g. `appUrl` or `files.2`. */
  path: string
  message: string
}

export interface SelectorErrorJSON {
  name: 'SelectorError'
  code: SelectorErrorCode
  message: string
  isRetryable: boolean
  issues: readonly SelectorIssue[]
}

/** The `validation_error` for one bad option (`path`), thrown before anything is shown. */
export const invalid = (path: string, message: string): never => {
  throw new SelectorError('validation_error', `${path} ${message}`, undefined, [{ path, message }])
}

export class SelectorError extends Error {
  declare readonly [MARKER]: true
  override readonly name = 'SelectorError' as const
  /** Which way the selector failed; stable, for `switch`. */
  declare readonly code: SelectorErrorCode
  /** Whether opening the selector again may succeed. */
  declare readonly isRetryable: boolean
  /** With code `validation_error`: each bad option (empty for the other codes). */
  declare readonly issues: readonly SelectorIssue[]

  constructor(code: SelectorErrorCode, message: string, cause?: unknown, issues: SelectorIssue[] = []) {
    super(message, cause === undefined ? undefined : { cause })
    Object.defineProperty(this, MARKER, { value: true })
    this.code = code
    this.isRetryable = code === 'timeout'
    this.issues = issues
  }

  /** `instanceof` that also works across copies of the SDK and across realms. */
  static isInstance(value: unknown): value is SelectorError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [MARKER]?: unknown })[MARKER] === true &&
      (value as Error).name === 'SelectorError'
    )
  }

  toJSON(): SelectorErrorJSON {
    // The own enumerable fields (name, code, isRetryable, issues); not the cause, not the marker.
    return { ...this, message: this.message }
  }
}
