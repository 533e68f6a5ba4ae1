export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—'
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = n
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return unit === 0 ? `${n} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`
}

/** A rate in bytes per second: `5.2 MB/s`. */
export const formatRate = (bytesPerSecond: number) => `${formatBytes(Math.round(bytesPerSecond))}/s`

/** Time left: `12 s left`, `4 min left`, `2 h left`. */
export function formatEta(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  if (seconds < 60) return `${seconds} s left`
  const minutes = Math.round(seconds / 60)
  return minutes < 60 ? `${minutes} min left` : `${Math.round(minutes / 60)} h left`
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })

export const formatDateTime = (value: string | number | Date) => dateTime.format(new Date(value))
export const formatDate = (value: string | number | Date) => date.format(new Date(value))
export const formatTime = (value: string | number | Date) => time.format(new Date(value))

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

export function formatRelative(at: number, now = Date.now()): string {
  const seconds = Math.round((at - now) / 1000)
  if (Math.abs(seconds) < 45) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute')
  const hours = Math.round(minutes / 60)
  if (Math.abs(hours) < 24) return relative.format(hours, 'hour')
  return relative.format(Math.round(hours / 24), 'day')
}

/** `1753946835010000005` -> `…0000005`, for places where the whole id is noise (the title keeps it). */
export const shortId = (id: string) => (id.length > 10 ? `…${id.slice(-7)}` : id)
