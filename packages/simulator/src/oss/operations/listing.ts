import { type QueryParams, queryValue } from '../protocol/request.ts'
import { OperationError } from './operation.ts'

/** A non-negative integer query value in 1..max, or the default; anything else is InvalidArgument. */
export function limitOf(query: QueryParams, name: string, fallback: number, max: number): number {
  const text = queryValue(query, name)
  if (text === undefined || text === '') return fallback
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < 1 || n > max)
    throw new OperationError('InvalidArgument', `${name} must be an integer between 1 and ${max}.`, {
      ArgumentName: name,
      ArgumentValue: text,
    })
  return n
}

/**
 * One page of a listing (items already after the marker): entries whose name (after `prefix`) has
 * no `delimiter`, and the common prefixes of those that have one, each counting once toward `max`.
 */
export function page<T>(
  items: readonly T[],
  name: (item: T) => string,
  { prefix, delimiter, max, marker }: { prefix: string; delimiter: string; max: number; marker: string },
): { entries: T[]; prefixes: string[]; truncated: boolean; last?: { name: string; item?: T } } {
  const entries: T[] = []
  const prefixes: string[] = []
  let last: { name: string; item?: T } | undefined
  for (const item of items) {
    const key = name(item)
    const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length)
    const common = cut < 0 ? undefined : key.slice(0, cut + delimiter.length)
    // A common prefix counts once, and not again on the page after the one that ended with it.
    if (common !== undefined && (prefixes.at(-1) === common || common === marker)) continue
    if (entries.length + prefixes.length === max)
      return { entries, prefixes, truncated: true, ...(last ? { last } : {}) }
    if (common === undefined) {
      entries.push(item)
      last = { name: key, item }
    } else {
      prefixes.push(common)
      last = { name: common }
    }
  }
  return { entries, prefixes, truncated: false, ...(last ? { last } : {}) }
}

/** Keys in UTF-8 byte order, as OSS lists them. */
export const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
