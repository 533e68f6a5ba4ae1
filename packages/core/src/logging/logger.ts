import type { Redactor } from './redact.ts'

/** Console-compatible: pass `console`, pino, or anything with these methods. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

const noop = () => {}

/** The default: the SDK logs nothing unless given a logger. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop }

/** Wraps a user's logger so that nothing the SDK logs can carry a secret. */
export function redactingLogger(logger: Partial<Logger> | undefined, redact: Redactor): Logger {
  if (!logger) return silentLogger
  const level =
    (name: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const write = logger[name]
      if (typeof write !== 'function') return
      if (fields === undefined) write.call(logger, redact(message))
      else write.call(logger, redact(message), redact(fields))
    }
  return { debug: level('debug'), info: level('info'), warn: level('warn'), error: level('error') }
}
