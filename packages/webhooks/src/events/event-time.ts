/**
 * `eventTime` arrives as epoch milliseconds in a string (every sample), as ISO 8601 with an
 * offset (what the folder callback's table says), or conceivably as a JSON number. Returns
 * epoch milliseconds, or undefined when the value is none of these.
 */
export function eventTimeMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (/^-?\d+$/.test(text)) {
    const ms = Number(text)
    return Number.isSafeInteger(ms) ? ms : undefined
  }
  // Only date-shaped strings: Date.parse alone accepts oddities such as "1" or "March 7".
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i.test(text))
    return undefined
  const ms = Date.parse(text.replace(' ', 'T'))
  return Number.isFinite(ms) ? ms : undefined
}
