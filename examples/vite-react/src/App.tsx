import { useFolderPicker, useUploads } from '@service-sdk/react'
import { orgIdForSave } from '@service-sdk/selector'
import { formatBytes, formatEta } from './format.ts'
import { UploadRow } from './UploadRow.tsx'

export function App({ appUrl }: { appUrl: string }) {
  const picker = useFolderPicker({ appUrl })
  const uploads = useUploads({ concurrency: 3 })
  const folder = picker.choice
  const { summary } = uploads

  function add(files: FileList) {
    if (!folder) return
    // The selector reports the personal space as orgId '1' (or none): saving omits it.
    const orgId = orgIdForSave(folder.orgId)
    uploads.add(files, { folderId: folder.folderId, ...(orgId && { orgId }) })
  }

  return (
    <main>
      <h1>Upload into a folder</h1>
      <section>
        <button
          type="button"
          disabled={picker.status === 'open'}
          onClick={() => void picker.pick().catch(() => {})}
        >
          Choose a folder
        </button>
        <p id="folder">
          {folder
            ? `Folder ${folder.folderId} (${orgIdForSave(folder.orgId) ? `team space ${folder.orgId}` : 'personal space'})`
            : 'No folder chosen yet.'}
        </p>
        {picker.error && <p role="alert">The folder selector failed: {picker.error.message}</p>}
      </section>
      <section>
        <label>
          Files{' '}
          <input
            type="file"
            multiple
            disabled={!folder}
            onChange={(event) => {
              if (event.target.files) add(event.target.files)
              event.target.value = ''
            }}
          />
        </label>
        {uploads.items.length > 0 && (
          <p id="summary">
            {summary.counts.done} of {uploads.items.length} saved · {formatBytes(summary.loaded)} of{' '}
            {formatBytes(summary.total)}
            {summary.rate !== undefined && ` · ${formatBytes(summary.rate)}/s · ${formatEta(summary.etaMs)}`}
          </p>
        )}
        <ul id="uploads">
          {uploads.items.map((item) => (
            <UploadRow key={item.id} item={item} uploads={uploads} />
          ))}
        </ul>
        {summary.counts.done + summary.counts.aborted > 0 && (
          <button type="button" onClick={uploads.clear}>
            Clear finished
          </button>
        )}
      </section>
    </main>
  )
}
