import type { Logger } from '@service-sdk/core'
import { silentLogger } from '@service-sdk/core/internal'

/**
 * The SDK's `Logger` for the simulator's own failures (a route that crashed, a delivery given up).
 * Unlike the SDK, which is silent by default, the simulator writes warnings and errors to stderr
 * unless given a logger: it is a development tool, and a 500 nobody sees is a test nobody can fix.
 */
export function simulatorLogger(logger: Partial<Logger> | undefined, prefix: string): Logger {
  if (!logger) {
    const write = (message: string, fields?: Record<string, unknown>) =>
      console.error(`[${prefix}] ${message}`, ...(fields ? [fields] : []))
    return { ...silentLogger, warn: write, error: write }
  }
  const level = (name: keyof Logger) => (message: string, fields?: Record<string, unknown>) =>
    logger[name]?.call(logger, message, fields)
  return { debug: level('debug'), info: level('info'), warn: level('warn'), error: level('error') }
}
