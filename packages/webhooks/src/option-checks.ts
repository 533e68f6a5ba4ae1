import { ServiceValidationError, type ValidationIssue } from '@service-sdk/core'

/** The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647

export interface NumberRule {
  /** Whole numbers only. */
  integer?: boolean
  /** The smallest value allowed (inclusive). */
  min: number
  /** The largest value allowed (inclusive); default: any finite number. */
  max?: number
}

/**
 * The one way this package checks options: each check adds an issue that says what is wrong
 * with the value given (NaN, a negative count, a string, out of range), and `throwIfAny` throws
 * them all at once as a `ServiceValidationError`, before anything is opened or sent.
 */
export class OptionIssues {
  readonly #what: string
  readonly #issues: ValidationIssue[] = []

  /** `what`: whose options, as the error names them (e.g. `createWebhookReceiver options`). */
  constructor(what: string) {
    this.#what = what
  }

  add(path: string, message: string): void {
    this.#issues.push({ path, message })
  }

  /** A number within `rule`, when given (undefined is the default). */
  number(path: string, value: unknown, rule: NumberRule): void {
    if (value === undefined) return
    const problem = numberProblem(value, rule)
    if (problem) this.add(path, problem)
  }

  /** One of `allowed`, when given. */
  oneOf(path: string, value: unknown, allowed: readonly unknown[]): void {
    if (value === undefined || allowed.includes(value)) return
    this.add(path, `must be ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, got ${describe(value)}`)
  }

  /** A boolean, when given. */
  boolean(path: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'boolean')
      this.add(path, `must be true or false, got ${describe(value)}`)
  }

  /** A function, when given. */
  function(path: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'function')
      this.add(path, `must be a function, got ${describe(value)}`)
  }

  /** An array of strings, when given. */
  strings(path: string, value: unknown): void {
    if (value === undefined) return
    if (!Array.isArray(value)) this.add(path, `must be an array of strings, got ${describe(value)}`)
    else {
      const at = value.findIndex((item) => typeof item !== 'string')
      if (at !== -1) this.add(`${path}[${at}]`, `must be a string, got ${describe(value[at])}`)
    }
  }

  /** An object (its fields are checked by the caller), when given. */
  object(path: string, value: unknown): boolean {
    if (value === undefined) return false
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return true
    this.add(path, `must be an object, got ${describe(value)}`)
    return false
  }

  throwIfAny(): void {
    if (this.#issues.length > 0) throw new ServiceValidationError(this.#what, this.#issues)
  }
}

function numberProblem(value: unknown, { integer = false, min, max }: NumberRule): string | undefined {
  const kind = integer ? 'an integer' : 'a number'
  if (typeof value !== 'number') return `must be ${kind}, got ${describe(value)}`
  if (Number.isNaN(value)) return `must be ${kind}, got NaN`
  if (!Number.isFinite(value)) return `must be a finite ${integer ? 'integer' : 'number'}, got ${value}`
  if (integer && !Number.isInteger(value)) return `must be an integer, got ${value}`
  if (value < min)
    return `must be at least ${min}${min === 0 && value < 0 ? ' (not negative)' : ''}, got ${value}`
  if (max !== undefined && value > max) return `must be at most ${max}, got ${value}`
  return undefined
}

/** A value, briefly, for a message: never more than a few dozen characters of it. */
function describe(value: unknown): string {
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)}`
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : `a ${typeof value}`
}
