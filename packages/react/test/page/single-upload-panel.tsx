import { useUpload } from '@service-sdk/react'
import { useState } from 'react'

/** useUpload: one file at a time; what each start() resolved with, in order. */
export function SingleUploadPanel() {
  const upload = useUpload({ folderId: '0', tags: ['single'] })
  const [resolved, setResolved] = useState<string[]>([])
  return (
    <section>
      <input
        type="file"
        id="single"
        onChange={(event) => {
          const file = event.target.files?.[0]
          if (file)
            void upload
              .start(file)
              .then((asset) => setResolved((r) => [...r, asset ? asset.accessUrl : 'undefined']))
          event.target.value = ''
        }}
      />
      <output
        id="single-state"
        data-status={upload.status}
        data-loaded={upload.progress?.loaded ?? ''}
        data-url={upload.asset?.accessUrl ?? ''}
        data-resolved={JSON.stringify(resolved)}
      />
      <button type="button" id="single-abort" onClick={upload.abort}>
        Abort
      </button>
    </section>
  )
}
