import { stripVTControlCharacters } from 'node:util'
import type { PermissionReason } from '@service-sdk/core'
import Table from 'cli-table3'
import picocolors from 'picocolors'
import { CliError, EXIT } from './errors.ts'

/**
 * Colours only on a terminal, never with NO_COLOR or --no-color; FORCE_COLOR forces them.
 * (picocolors alone would also colour piped output whenever a CI variable is set.)
 */
const colours =
  !process.env.NO_COLOR &&
  !process.argv.includes('--no-color') &&
  (Boolean(process.env.FORCE_COLOR) || (process.stdout.isTTY === true && process.env.TERM !== 'dumb'))
export const pc = picocolors.createColors(colours)

/** stdout: tables for people, JSON for scripts (`--json`); stderr: errors and progress. */
export interface Output {
  json: boolean
  /**
   * One JSON value (with `--json`), or a table of rows. `wrap`: the last columns share what is
   * left of the terminal's width (100 columns when not a terminal), their words wrapped.
   */
  table(rows: Array<Record<string, unknown>>, columns: string[], wrap?: { fixed: number }): void
  /** A JSON value as is (`--json`), or these lines of text. */
  result(value: unknown, text: () => string): void
  /** A line for people on stderr (never with `--json` on stdout). */
  note(line: string): void
}

export function createOutput(json: boolean): Output {
  return {
    json,
    table(rows, columns, wrap) {
      if (json) return void process.stdout.write(`${JSON.stringify(rows)}\n`)
      const colWidths = wrap ? widths(rows, columns, wrap.fixed) : []
      const table = new Table({
        head: columns.map((c) => pc.bold(c)),
        style: { head: [], border: [] },
        ...(wrap ? { wordWrap: true, colWidths } : {}),
      })
      // A word longer than its column (a key, a URL) is broken, not cut short.
      const fit = (text: string, i: number) => {
        const room = (colWidths[i] ?? 0) - 2
        if (!wrap || i < wrap.fixed || room < 8) return text
        return text.replace(new RegExp(`\\S{${room + 1},}`, 'g'), (word) =>
          (word.match(new RegExp(`.{1,${room}}`, 'g')) ?? [word]).join('\n'),
        )
      }
      for (const row of rows) table.push(columns.map((c, i) => fit(cell(row[c]), i)))
      process.stdout.write(`${table.toString()}\n`)
    },
    result(value, text) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`)
    },
    note(line) {
      process.stderr.write(`${line}\n`)
    },
  }
}

/** The first `fixed` columns as wide as their content; the others share the rest of the width. */
function widths(
  rows: Array<Record<string, unknown>>,
  columns: string[],
  fixed: number,
): Array<number | null> {
  const total = Math.max(process.stdout.columns ?? 100, 60)
  const first = columns
    .slice(0, fixed)
    .map((c) => Math.max(c.length, ...rows.map((r) => stripVTControlCharacters(cell(r[c])).length)) + 2)
  const rest = columns.length - fixed
  const left = total - first.reduce((a, b) => a + b, 0) - columns.length - 1
  return [...first, ...Array.from({ length: rest }, () => Math.max(Math.floor(left / rest), 16))]
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return pc.dim('-')
  if (value === true) return pc.green('yes')
  if (value === false) return pc.yellow('no')
  return String(value)
}

/** One line and a hint on stderr (JSON with `--json`); returns the exit code. */
export async function reportError(error: unknown, json: boolean): Promise<number> {
  const { message, hint, code, exit } = await explain(error)
  if (json)
    process.stderr.write(`${JSON.stringify({ error: { code, message, ...(hint ? { hint } : {}) } })}\n`)
  else process.stderr.write(`${pc.red('Error:')} ${message}\n${hint ? `${pc.dim('Hint:')} ${hint}\n` : ''}`)
  return exit
}

export interface Explained {
  message: string
  hint: string | undefined
  code: string
  exit: number
}

/** An error as the command shows it: one line, a hint, its code and the exit code it means. */
export async function explain(error: unknown): Promise<Explained> {
  // Imported here: the error classes load zod, which `service-sdk --help` does not need.
  const {
    ServiceAuthenticationError,
    ServiceConnectionError,
    ServiceError,
    ServiceNotFoundError,
    ServicePermissionError,
    ServiceTimeoutError,
    ServiceValidationError,
  } = await import('@service-sdk/core')
  if (error instanceof CliError)
    return { message: error.message, hint: error.hint, code: error.kind, exit: EXIT[error.kind] }
  if (ServiceValidationError.isInstance(error)) {
    const issues = error.issues.map((i) => `${i.path || 'input'}: ${i.message}`).join('; ')
    return {
      message: issues || error.message,
      hint: 'Check the arguments (--help shows examples)',
      code: error.code,
      exit: EXIT.usage,
    }
  }
  if (ServiceConnectionError.isInstance(error) || ServiceTimeoutError.isInstance(error))
    return {
      message: oneLine(error.message),
      hint: 'Is the service reachable? Check `service-sdk config`; locally, start one with `service-sdk sim`',
      code: error.code,
      exit: EXIT.unreachable,
    }
  if (ServiceAuthenticationError.isInstance(error))
    return {
      message: oneLine(error.message),
      hint: 'The key or token was refused: check `service-sdk config` (SERVICE_TEAM_API_KEY, SERVICE_OPEN_TOKEN, SERVICE_API_KEY)',
      code: error.code,
      exit: EXIT.failed,
    }
  if (ServicePermissionError.isInstance(error))
    return {
      message: oneLine(error.message),
      hint: PERMISSION_HINTS[error.reason],
      code: error.code,
      exit: EXIT.failed,
    }
  if (ServiceNotFoundError.isInstance(error))
    return {
      message: oneLine(error.message),
      hint: 'Check the id (`service-sdk members list`, `service-sdk spaces`)',
      code: error.code,
      exit: EXIT.failed,
    }
  if (ServiceError.isInstance(error))
    return { message: oneLine(error.message), hint: undefined, code: error.code, exit: EXIT.failed }
  const message = error instanceof Error ? error.message : String(error)
  return { message: oneLine(message), hint: undefined, code: 'error', exit: EXIT.failed }
}

/** What to do about a refusal, by the reason the service gave. */
const PERMISSION_HINTS: Record<PermissionReason, string> = {
  'domain-not-whitelisted':
    "Add the domain to the team's verified domain whitelist in the team dashboard, or use an address on a whitelisted domain",
  'seat-limit': 'The team has no free seat: free one or add seats in the team dashboard',
  capability: 'The team lacks asset-event subscriptions: enable the capability for the team',
  other: '`service-sdk spaces` shows where you may write; `service-sdk members list` who is in the team',
}

/**
 * A webhook callback URL as it may be shown: its last path segment, where a receiver's token goes
 * (`/webhooks/<token>`), and any other segment of 16 characters or more as `<token>`; no query,
 * fragment or user info.
 */
export function withoutToken(url: string): string {
  if (!URL.canParse(url)) return '<a callback URL>'
  const { protocol, host, pathname, search, hash } = new URL(url)
  const segments = pathname.split('/')
  const last = segments.findLastIndex((s) => s !== '')
  const path = segments.map((s, i) => (i === last || s.length >= 16 ? '<token>' : s)).join('/')
  return `${protocol}//${host}${path}${search ? '?…' : ''}${hash ? '#…' : ''}`
}

const oneLine = (text: string) => text.split('\n')[0] ?? text

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}
