import { ObjectStoreError, type RangeRequest } from './store.ts'

/**
 * A `Range` header as OSS reads it: one `bytes=` range; anything else (several ranges, garbage,
 * end before start) is ignored and the whole object is served.
 */
export function parseRange(header: string | null | undefined): RangeRequest | undefined {
  const match = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null
  if (!match) return undefined
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return undefined
  if (from === '') return { suffix: Number(to) }
  const start = Number(from)
  if (to === '') return { start }
  const end = Number(to)
  return end < start ? undefined : { start, end }
}

/** The inclusive byte range to serve; `InvalidRange` when nothing of the object is in it. */
export function resolveRange(range: RangeRequest, size: number): { start: number; end: number } {
  if ('suffix' in range) {
    if (range.suffix === 0 || size === 0)
      throw new ObjectStoreError('InvalidRange', undefined, rangeFields(range, size))
    return { start: Math.max(0, size - range.suffix), end: size - 1 }
  }
  if (range.start >= size) throw new ObjectStoreError('InvalidRange', undefined, rangeFields(range, size))
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) }
}

function rangeFields(range: RangeRequest, size: number): Record<string, string> {
  const text = 'suffix' in range ? `bytes=-${range.suffix}` : `bytes=${range.start}-${range.end ?? ''}`
  return { RangeRequested: text, ActualObjectSize: String(size) }
}
