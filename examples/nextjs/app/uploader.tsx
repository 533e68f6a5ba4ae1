'use client'

import { createOpenClient, type UploadManyProgress } from '@service-sdk/open'
import { type FolderChoice, pickFolder } from '@service-sdk/selector'
import { useMemo, useState } from 'react'

/** Pick a folder with the selector (flow 2), then upload files into it through the proxy route. */
export function Uploader({ appUrl }: { appUrl: string }) {
  // No token in the browser: the proxy route adds the server's; the session cookie goes along.
  const open = useMemo(() => createOpenClient({ proxyUrl: '/api/upload' }), [])
  const [folder, setFolder] = useState<FolderChoice | null>(null)
  const [progress, setProgress] = useState<UploadManyProgress | null>(null)
  const [links, setLinks] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)

  async function choose() {
    setError(null)
    try {
      setFolder((await pickFolder({ appUrl })) ?? folder)
    } catch (e) {
      setError((e as Error).message)
    }
  }

  async function upload(files: FileList | null) {
    if (!files || files.length === 0) return
    setError(null)
    const batch = open.uploadMany([...files], {
      folderId: folder?.folderId ?? '0',
      ...(folder?.orgId ? { orgId: folder.orgId } : {}),
    })
    batch.onProgress(setProgress)
    try {
      const results = await batch.done()
      setLinks(results.flatMap((r) => (r.status === 'fulfilled' ? [r.asset.accessUrl] : [])))
      const failed = results.filter((r) => r.status === 'rejected').length
      if (failed > 0) setError(`${failed} file(s) failed`)
    } catch (e) {
      setError((e as Error).message)
    }
  }

  return (
    <section>
      <p>
        Folder:{' '}
        {folder
          ? `${folder.folderId} (space ${folder.orgId ?? 'personal'})`
          : 'the root of your personal space'}{' '}
        <button type="button" onClick={choose}>
          Choose a folder
        </button>
      </p>
      <input type="file" multiple onChange={(e) => void upload(e.target.files)} />
      {progress && (
        <p>
          {progress.files.saved}/{progress.files.total} saved,{' '}
          {Math.round((progress.loaded / Math.max(progress.total, 1)) * 100)}%
        </p>
      )}
      {error && <p role="alert">{error}</p>}
      <ul>
        {links.map((link) => (
          <li key={link}>
            <a href={link}>{link}</a>
          </li>
        ))}
      </ul>
    </section>
  )
}
