import { ServiceValidationError } from '@service-sdk/core'

// Hand-written checks for the upload options, in place of zod/mini: they run synchronously in
// upload(), uploadMany() and createOpenClient(), so they are in the browser entry, where zod/mini's
// core alone weighed about 17 KB gzip (packages/open/test/browser-size.test.ts). Each rule gives
// the issues (paths, messages, order) the zod/mini schemas gave with zod's English messages;
// option-rules.test.ts compares them with those schemas over many inputs.

/** One problem; `fatal` as in zod: later checks of the same value do not run after it. */
export interface RuleIssue {
  path: PropertyKey[]
  message: string
  fatal: boolean
}

export interface Checked<T> {
  value: T
  issues: RuleIssue[]
}

/** A check of one value. `optional` rules accept `undefined`, and an absent key of an object. */
export interface Rule<T> {
  (input: unknown): Checked<T>
  readonly optional?: true
}

/** A check of a number that passed the type check: the message when it fails. */
export type NumberCheck = (value: number) => string | undefined

const ok = <T>(value: T): Checked<T> => ({ value, issues: [] })
const issue = (message: string, fatal: boolean): RuleIssue => ({ path: [], message, fatal })
const failed = <T>(message: string, fatal = true): Checked<T> => ({
  value: undefined as T,
  issues: [issue(message, fatal)],
})

/** How zod's English messages name what was received. */
function received(input: unknown): string {
  if (typeof input === 'number') return Number.isFinite(input) ? 'number' : String(input) // NaN, Infinity
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'array'
  if (typeof input === 'object') {
    const proto = Object.getPrototypeOf(input)
    if (proto !== Object.prototype && 'constructor' in input && input.constructor) {
      return (input.constructor as { name: string }).name
    }
  }
  return typeof input
}

const typeError = <T>(expected: string, input: unknown, message?: string): Checked<T> =>
  failed(message ?? `Invalid input: expected ${expected}, received ${received(input)}`)

export const atLeast =
  (min: number, message?: string): NumberCheck =>
  (v) =>
    v < min ? (message ?? `Too small: expected number to be >=${min}`) : undefined

export const atMost =
  (max: number, message?: string): NumberCheck =>
  (v) =>
    v > max ? (message ?? `Too big: expected number to be <=${max}`) : undefined

export const above =
  (min: number, message?: string): NumberCheck =>
  (v) =>
    v <= min ? (message ?? `Too small: expected number to be >${min}`) : undefined

/** A finite number (an integer with `int`); `message` replaces the type and integer messages. */
export function number(kind: { int?: boolean; message?: string }, ...checks: NumberCheck[]): Rule<number> {
  return (input) => {
    if (typeof input !== 'number' || !Number.isFinite(input)) return typeError('number', input, kind.message)
    const issues: RuleIssue[] = []
    if (kind.int) {
      if (!Number.isInteger(input))
        return failed(kind.message ?? 'Invalid input: expected int, received number')
      if (!Number.isSafeInteger(input)) {
        const bound =
          input > 0
            ? `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`
            : `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`
        issues.push(issue(kind.message ?? bound, false))
      }
    }
    for (const check of checks) {
      const message = check(input)
      if (message !== undefined) issues.push(issue(message, false))
    }
    return { value: input, issues }
  }
}

/**
 * A string. `nonEmpty` is zod's `minLength(1, message)`, which also runs on a non-string that has
 * a `length` (an array, a function); each further check returns the message when it fails, and
 * runs on strings only.
 */
export function string(
  nonEmpty?: string,
  ...checks: Array<(value: string) => string | undefined>
): Rule<string> {
  return (input) => {
    const issues: RuleIssue[] = []
    if (typeof input !== 'string')
      issues.push(issue(`Invalid input: expected string, received ${received(input)}`, true))
    const length = input === null || input === undefined ? undefined : (input as { length?: unknown }).length
    if (nonEmpty !== undefined && length !== undefined && !((length as number) >= 1))
      issues.push(issue(nonEmpty, false))
    if (typeof input !== 'string') return { value: input as string, issues }
    for (const check of checks) {
      const message = check(input)
      if (message !== undefined) issues.push(issue(message, false))
    }
    return { value: input, issues }
  }
}

export const boolean: Rule<boolean> = (input) =>
  typeof input === 'boolean' ? ok(input) : typeError('boolean', input)

export const literalFalse: Rule<false> = (input) =>
  input === false ? ok(false) : failed('Invalid input: expected false')

export const unknown: Rule<unknown> = ok

/** A value that passes `test`; otherwise `message` (zod's `custom`, whose issue is fatal). */
export function custom<T>(
  test: (value: unknown) => boolean,
  message: string | ((input: unknown) => string),
): Rule<T> {
  return (input) =>
    test(input) ? ok(input as T) : failed(typeof message === 'string' ? message : message(input))
}

export function optional<T>(rule: Rule<T>): Rule<T | undefined> {
  const checked = (input: unknown): Checked<T | undefined> =>
    input === undefined ? ok(undefined) : rule(input)
  return Object.assign(checked, { optional: true as const })
}

/** `then` on what `first` gave, when it gave no issue (zod's `pipe`). */
export function pipe<A, B>(first: Rule<A>, then: (value: A) => Checked<B>): Rule<B> {
  return (input) => {
    const checked = first(input)
    return checked.issues.length > 0 ? (checked as unknown as Checked<B>) : then(checked.value)
  }
}

export function array<T>(element: Rule<T>): Rule<T[]> {
  return (input) => {
    if (!Array.isArray(input)) return typeError('array', input)
    const checked = Array.from(input, (item) => element(item)) // holes too, as zod
    const issues = checked.flatMap((c, index) => within(index, c.issues))
    return { value: checked.map((c) => c.value), issues }
  }
}

/**
 * The first option that passes; else the issues of the one option that failed without a fatal
 * issue, when exactly one did; else "Invalid input" (zod's `union`).
 */
export function union<A, B>(a: Rule<A>, b: Rule<B>): Rule<A | B> {
  return (input) => {
    const results: Checked<A | B>[] = [a(input), b(input)]
    const passed = results.find((r) => r.issues.length === 0)
    if (passed) return passed
    const soft = results.filter((r) => !r.issues.some((i) => i.fatal))
    return soft.length === 1 ? (soft[0] as Checked<A | B>) : failed('Invalid input')
  }
}

/** Issues of a value found at `key` of the value being checked. */
function within(key: PropertyKey, issues: RuleIssue[]): RuleIssue[] {
  return issues.map((i) => ({ ...i, path: [key, ...i.path] }))
}

/** A rule for each key of `T`; written against an interface, so no type is derived from rules. */
export type Shape<T> = { [K in keyof T]-?: Rule<T[K]> }

/**
 * A plain object with only the keys of `shape` (zod's `strictObject`): each key's issues in the
 * shape's order, then one issue naming the keys it does not know.
 */
export function strictObject<T>(shape: Shape<T>): Rule<T> {
  return objectRule(shape, true)
}

/** A plain object with the keys of `shape`; other keys are dropped (zod's `object`). */
export function object<T>(shape: Shape<T>): Rule<T> {
  return objectRule(shape, false)
}

function objectRule<T>(shape: Shape<T>, strict: boolean): Rule<T> {
  const keys = Object.keys(shape) as Array<keyof T & string>
  const known = new Set<string>(keys)
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return typeError('object', input)
    const fields = input as Record<string, unknown>
    const value: Record<string, unknown> = {}
    const issues: RuleIssue[] = []
    for (const key of keys) {
      const rule = shape[key] as Rule<unknown>
      const present = key in fields
      if (!present && rule.optional) continue
      const checked = rule(fields[key])
      issues.push(...within(key, checked.issues))
      if (!present && checked.issues.length === 0) {
        issues.push({
          path: [key],
          message: 'Invalid input: expected nonoptional, received undefined',
          fatal: true,
        })
      }
      if (present) value[key] = checked.value
    }
    const unknownKeys: string[] = []
    // Inherited enumerable keys count too, as in zod (`for...in`).
    if (strict) for (const key in fields) if (!known.has(key)) unknownKeys.push(key)
    if (unknownKeys.length > 0) {
      const list = unknownKeys.map((k) => `"${k}"`).join(', ')
      issues.push(issue(`Unrecognized key${unknownKeys.length > 1 ? 's' : ''}: ${list}`, false))
    }
    return { value: value as T, issues }
  }
}

/** The checked value, or a `ServiceValidationError` listing every issue (as core's `parseInput`). */
export function parseWith<T>(rule: Rule<T>, input: unknown, what: string): T {
  const checked = rule(input)
  if (checked.issues.length === 0) return checked.value
  throw new ServiceValidationError(
    what,
    checked.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  )
}
