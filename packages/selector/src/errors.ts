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
  | 'invalid-message'
  /** `destroy()` was called while the selector was open, or `open()` after it. */
  | 'destroyed'
  /** Bad options, detected before anything is shown. */
  | 'invalid-options'
  /** No DOM: called under Node or during SSR. */
  | 'unsupported'

export interface SelectorErrorJSON {
  name: 'SelectorError'
  code: SelectorErrorCode
  message: string
  isRetryable: boolean
}

export class SelectorError extends Error {
  declare readonly [MARKER]: true
  override readonly name = 'SelectorError' as const
  /** Which way the selector failed; stable, for `switch`. */
  readonly code: SelectorErrorCode
  /** Whether opening the selector again may succeed. */
  readonly isRetryable: boolean

  constructor(code: SelectorErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause })
    Object.defineProperty(this, MARKER, { value: true })
    this.code = code
    this.isRetryable = code === 'timeout'
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
    return { name: this.name, code: this.code, message: this.message, isRetryable: this.isRetryable }
  }
}
