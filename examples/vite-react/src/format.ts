/** `1.5 MB`, for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  const units = ['kB', 'MB', 'GB', 'TB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

/** `3 s left`, `2 min left`. */
export function formatEta(ms: number | undefined): string {
  if (ms === undefined) return 'estimating…'
  const seconds = Math.ceil(ms / 1000)
  return seconds < 90 ? `${seconds} s left` : `${Math.ceil(seconds / 60)} min left`
}
