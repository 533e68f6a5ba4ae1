/** Exit codes of `service-sdk` (documented in the README). */
export const EXIT = {
  ok: 0,
  /** The operation failed: the service refused, a file failed to upload, a trigger failed. */
  failed: 1,
  /** Bad arguments or options. */
  usage: 2,
  /** Configuration missing or invalid (a `SERVICE_*` variable, the profile file). */
  config: 3,
  /** The service could not be reached. */
  unreachable: 4,
  /** upload: some entries were not files it could read (each is named); the others were uploaded. */
  skipped: 5,
  /** upload: a file's save was sent without an answer, so whether it is saved is unknown. */
  unknown: 6,
  /** upload: another upload to the same destination is running (it holds the journal's lock). */
  busy: 7,
  /** doctor: at least one check failed (each failed row says what to fix). */
  unhealthy: 8,
  /** Interrupted (Ctrl-C): an upload continues when the same command runs again. */
  interrupted: 130,
} as const

export type CliErrorKind = 'usage' | 'config' | 'failed' | 'unreachable' | 'busy'

/** An error the CLI explains itself: one line, and a hint saying what to do. */
export class CliError extends Error {
  readonly kind: CliErrorKind
  readonly hint: string | undefined
  constructor(kind: CliErrorKind, message: string, hint?: string) {
    super(message)
    this.name = 'CliError'
    this.kind = kind
    this.hint = hint
  }
}
