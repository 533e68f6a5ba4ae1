/**
 * The page of the resumable browser upload test (proxy-browser-resume.test.ts), built with Vite as
 * an application would be: `@service-sdk/open` through its `browser` export condition. It uploads
 * the chosen File through the upload proxy with checkpoints in IndexedDB, so that after a reload
 * the same file, picked again, continues from the parts already stored.
 */
import { createOpenClient, indexedDbCheckpoints } from '@service-sdk/open'

export interface ResumeResult {
  asset?: { key: string; size: number; accessUrl: string }
  error?: { name: string; code?: string; message: string }
}

declare global {
  interface Window {
    ready: boolean
    /** Bytes sent so far by the running upload. */
    uploadedBytes: number
    /** Uploads the chosen File through the proxy, resumable. */
    uploadResumable(proxyUrl: string, session: string): Promise<ResumeResult>
    /** The unfinished uploads IndexedDB keeps: file name, size, bytes of the parts stored. */
    listResumable(): Promise<Array<{ name: string; size: number; stored: number }>>
  }
}

window.uploadedBytes = 0

window.uploadResumable = async (proxyUrl, session) => {
  const file = (document.querySelector('#file') as HTMLInputElement).files?.[0]
  if (!file) throw new Error('no file chosen')
  const client = createOpenClient({ proxyUrl, headers: { Authorization: `Bearer ${session}` } })
  try {
    const asset = await client
      .upload(file, {
        checkpoint: indexedDbCheckpoints(),
        partSize: 8 * 1024 * 1024,
        parallel: 3,
        onProgress: (p) => {
          window.uploadedBytes = p.loaded
        },
      })
      .done()
    return { asset: { key: asset.key, size: asset.size, accessUrl: asset.accessUrl } }
  } catch (error) {
    const { name, code, message } = error as { name: string; code?: string; message: string }
    return { error: { name, message, ...(code === undefined ? {} : { code }) } }
  }
}

window.listResumable = async () =>
  (await indexedDbCheckpoints().list()).map((c) => ({
    name: c.source.name,
    size: c.source.size,
    stored: c.parts.reduce((sum, p) => sum + p.size, 0),
  }))

window.ready = true
