import { type UploadItem, type Uploads, useUploads } from '@service-sdk/react'
import { useEffect } from 'react'

function Row({ item, uploads }: { item: UploadItem; uploads: Uploads }) {
  return (
    <li
      data-name={item.name}
      data-status={item.status}
      data-loaded={item.progress.loaded}
      data-total={item.progress.total}
      data-error={item.error ? String((item.error as Error).name) : ''}
      data-url={item.asset?.accessUrl ?? ''}
    >
      {item.name} {item.status} {Math.round((item.fraction ?? 0) * 100)}%
      {item.progress.rate !== undefined && ` ${Math.round(item.progress.rate / 1024)} KiB/s`}
      {item.progress.etaMs !== undefined && ` ${Math.ceil(item.progress.etaMs / 1000)} s left`}
      <button type="button" data-action="resume" onClick={() => uploads.resume(item.id)}>
        Resume
      </button>
      <button type="button" data-action="abort" onClick={() => uploads.abort(item.id)}>
        Abort
      </button>
      <button type="button" data-action="retry" onClick={() => uploads.retry(item.id)}>
        Retry
      </button>
    </li>
  )
}

export function UploadsPanel() {
  const uploads = useUploads({ concurrency: 2, folderId: '0' })
  window.pauseUploads = uploads.pause
  useEffect(() => {
    window.effectRuns++
  }, [])
  return (
    <section>
      <input
        type="file"
        id="files"
        multiple
        onChange={(event) => {
          if (event.target.files) uploads.add(event.target.files)
          event.target.value = ''
        }}
      />
      <output id="summary" data-loaded={uploads.summary.loaded} data-total={uploads.summary.total}>
        {uploads.summary.counts.done} done
      </output>
      <ul id="uploads">
        {uploads.items.map((item) => (
          <Row key={item.id} item={item} uploads={uploads} />
        ))}
      </ul>
    </section>
  )
}
