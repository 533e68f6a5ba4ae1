/** The demo's own log lines (the SDK's loggers redact secrets; these never get any). */
export interface Log {
  info(message: string): void
  warn(message: string, error?: unknown): void
  error(message: string, error?: unknown): void
}

const detail = (error: unknown) =>
  error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`

export function consoleLog(prefix = '[demo]'): Log {
  return {
    info: (message) => console.log(`${prefix} ${message}`),
    warn: (message, error) => console.warn(`${prefix} ${message}${detail(error)}`),
    error: (message, error) => console.error(`${prefix} ${message}${detail(error)}`),
  }
}

export const silentLog: Log = { info() {}, warn() {}, error() {} }
