import { randomBytes } from 'node:crypto'

/**
 * Own `__proto__` keys, carried through zod. zod leaves them out of what it outputs (assigning
 * one would set the prototype instead), but a body may carry one as data, and handlers receive it
 * as plain data: renamed to a per-process key nobody can guess before validation, named back
 * after, always as an own property (never through the prototype setter).
 */
const STAND_IN = `\u0000__proto__:${randomBytes(8).toString('hex')}`
const PROTO = '__proto__'

/** `value` with every own `__proto__` key renamed; the same object when it holds none. */
export function hideProtoKeys<T>(value: T): T {
  return rename(value, PROTO, STAND_IN) as T
}

/** Undo hideProtoKeys on a parsed copy. */
export function restoreProtoKeys<T>(value: T): T {
  return rename(value, STAND_IN, PROTO) as T
}

function rename(value: unknown, from: string, to: string): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const next = rename(value[i], from, to)
      if (next === value[i]) continue
      out ??= [...value]
      out[i] = next
    }
    return out ?? value
  }
  const record = value as Record<string, unknown>
  let out: Array<[string, unknown]> | undefined
  const keys = Object.keys(record)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const item = record[key]
    const next = rename(item, from, to)
    if (!out && next === item && key !== from) continue
    // The first change: copy the entries seen so far, then go on copying.
    out ??= keys.slice(0, i).map((k) => [k, record[k]])
    out.push([key === from ? to : key, next])
  }
  // Object.fromEntries defines own properties: a `__proto__` key stays data.
  return out ? Object.fromEntries(out) : value
}
