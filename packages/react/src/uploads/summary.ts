import type { UploadItem, UploadStatus, UploadSummary } from './types.ts'

const STATUSES: readonly UploadStatus[] = ['queued', 'uploading', 'paused', 'done', 'failed', 'aborted']

/** Totals over `items`: bytes, a combined rate and an ETA, and how many are in each status. */
export function summarize(items: readonly UploadItem[]): UploadSummary {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<UploadStatus, number>
  let loaded = 0
  let total = 0
  let rate: number | undefined
  for (const item of items) {
    counts[item.status]++
    if (item.status === 'aborted') continue
    loaded += item.progress.loaded
    total += item.progress.total ?? item.progress.loaded
    if (item.status === 'uploading' && item.progress.rate !== undefined)
      rate = (rate ?? 0) + item.progress.rate
  }
  const fraction = total > 0 ? Math.min(1, loaded / total) : undefined
  const etaMs = rate ? Math.max(0, Math.round(((total - loaded) / rate) * 1000)) : undefined
  return { loaded, total, fraction, rate, etaMs, counts }
}
