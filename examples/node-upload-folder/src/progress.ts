import type { UploadManyProgress } from '@service-sdk/open'

const MiB = 1024 * 1024

/** One status line: files saved, bytes sent, and the rate since the start. */
export function progressLine(progress: UploadManyProgress, elapsedMs: number): string {
  const { files, loaded, total } = progress
  const percent = total > 0 ? Math.floor((loaded / total) * 100) : 0
  const rate = elapsedMs > 0 ? loaded / MiB / (elapsedMs / 1000) : 0
  const failed = files.failed > 0 ? `, ${files.failed} failed` : ''
  return `${files.saved}/${files.total} files saved${failed} | ${(loaded / MiB).toFixed(1)} of ${(total / MiB).toFixed(1)} MiB (${percent}%) | ${rate.toFixed(1)} MiB/s`
}
