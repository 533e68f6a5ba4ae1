import type { UploadItem, Uploads } from '@service-sdk/react'
import { formatBytes, formatEta } from './format.ts'

/** One file: a progress bar, what it is doing, and the buttons that apply now. */
export function UploadRow({ item, uploads }: { item: UploadItem; uploads: Uploads }) {
  const { progress, status } = item
  const percent = Math.round((item.fraction ?? 0) * 100)
  return (
    <li data-status={status}>
      <strong>{item.name ?? 'file'}</strong>{' '}
      <progress max={100} value={percent} aria-label={`${item.name} progress`} /> {percent}%{' '}
      <span className="status">{status}</span>
      {status === 'uploading' && progress.rate !== undefined && (
        <span>
          {' '}
          · {formatBytes(progress.rate)}/s · {formatEta(progress.etaMs)}
        </span>
      )}
      {status === 'done' && item.asset && (
        <a href={item.asset.accessUrl} target="_blank" rel="noreferrer">
          {' '}
          open
        </a>
      )}
      {status === 'failed' && (
        <span role="alert"> {String((item.error as Error)?.message ?? item.error)}</span>
      )}{' '}
      {status === 'uploading' && (
        <button type="button" onClick={() => void uploads.pause(item.id)}>
          Pause
        </button>
      )}
      {status === 'paused' && (
        <button type="button" onClick={() => uploads.resume(item.id)}>
          Resume
        </button>
      )}
      {(status === 'failed' || status === 'aborted') && (
        <button type="button" onClick={() => uploads.retry(item.id)}>
          Retry
        </button>
      )}
      {status !== 'done' && status !== 'aborted' && (
        <button type="button" onClick={() => uploads.abort(item.id)}>
          Cancel
        </button>
      )}
    </li>
  )
}
