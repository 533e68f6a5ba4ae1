/**
 * The page of the proxy's browser test (proxy-browser.test.ts), bundled as an application's
 * bundler would: `@service-sdk/open` through its `browser` export condition. It knows the proxy's
 * URL and a session, never the open API token.
 */
import { createOpenClient } from '@service-sdk/open'

export interface PageError {
  name: string
  message: string
  code?: string
  status?: number
}

export interface ProxyPageResult {
  asset?: { id: string; key: string; name: string; accessUrl: string; size: number; extension: string }
  error?: PageError
  sha256?: string
}

declare global {
  interface Window {
    ready: boolean
    /** Uploads the File chosen in `#file` through the proxy. */
    uploadChosen(proxyUrl: string, session: string): Promise<ProxyPageResult>
    /** Saves `key` as an asset through the proxy (the last step of an upload, on its own). */
    save(proxyUrl: string, session: string, key: string): Promise<ProxyPageResult>
    /** Calls the service's open API straight from the page. */
    direct(openUrl: string): Promise<ProxyPageResult>
  }
}

const errorOf = (error: unknown): PageError => {
  const { name, message, code, status } = error as PageError
  return {
    name,
    message,
    ...(code === undefined ? {} : { code }),
    ...(status === undefined ? {} : { status }),
  }
}

const client = (proxyUrl: string, session: string) =>
  createOpenClient({
    proxyUrl,
    headers: { Authorization: `Bearer ${session}` },
    retry: false,
    uploads: { retry: { maxRetries: 0 } },
  })

window.uploadChosen = async (proxyUrl, session) => {
  const file = (document.querySelector('#file') as HTMLInputElement).files?.[0]
  if (!file) throw new Error('no file chosen')
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()))
  const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')
  try {
    const asset = await client(proxyUrl, session)
      .upload(file, { partSize: 256 * 1024 })
      .done()
    return { asset: asset as NonNullable<ProxyPageResult['asset']>, sha256 }
  } catch (error) {
    return { error: errorOf(error), sha256 }
  }
}

window.save = async (proxyUrl, session, key) => {
  try {
    await client(proxyUrl, session).materials.save({
      materials: [{ key, name: 'x', extension: 'bin', size: 1 }],
    })
    return {}
  } catch (error) {
    return { error: errorOf(error) }
  }
}

window.direct = async (openUrl) => {
  try {
    await createOpenClient({ openUrl, token: { type: 'Page', value: 'page-token' }, retry: false }).orgs()
    return {}
  } catch (error) {
    return { error: errorOf(error) }
  }
}

window.ready = true
