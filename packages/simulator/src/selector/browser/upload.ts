import { fileName, formatBytes, progress } from './files.ts'
import { fail, refresh, say, succeed } from './lifecycle.ts'
import type { PageState } from './page-state.ts'

// Flow 1: the files go, one after the other, to this origin's api/upload endpoints.

/** Where the files go: the selected folder of the selected space. */
type Target = Record<'orgId' | 'folderId', string>

/**
 * How sending one file ended: `undefined` once stored, otherwise the line the page shows. A value,
 * not a rejection: the page shows the text and stops, nothing is thrown to a caller.
 */
type Sent = string | undefined

/** Uploads every file into the selected folder, then reports success; the first failure ends it. */
export async function upload(state: PageState): Promise<void> {
  const { selected, files } = state
  if (!selected || !files || state.phase !== 'choosing') return
  state.phase = 'uploading'
  state.tree.setAttribute('aria-disabled', 'true')
  refresh(state)
  const controller = new AbortController()
  state.uploads = controller
  const target = { orgId: selected.dataset.org ?? '', folderId: selected.dataset.folder ?? '' }
  for (const [index, file] of files.entries()) {
    if (state.phase !== 'uploading') return
    say(state, `Uploading ${index + 1} of ${files.length}: ${fileName(file, index)}…`)
    progress(state, index, typeof file === 'string' ? null : 0, 'uploading')
    let failure: Sent
    try {
      failure =
        typeof file === 'string'
          ? await sendAddress(state, file, target, controller.signal)
          : await sendFile(state, file, index, target, controller.signal)
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error)
    }
    if (failure === undefined) {
      progress(state, index, 1, 'done')
      continue
    }
    // Cancelled meanwhile: the cancel message has been posted already.
    if (state.phase !== 'uploading') return
    progress(state, index, 0, 'failed')
    fail(state, failure)
    return
  }
  if (state.phase === 'uploading') succeed(state)
}

/** One file's bytes as the body of `POST api/upload`; XHR, for its upload progress events. */
function sendFile(state: PageState, file: Blob, index: number, target: Target, signal: AbortSignal) {
  return new Promise<Sent>((resolve) => {
    const name = fileName(file, index)
    if (file.size > state.maxBytes) {
      resolve(`${name} is ${formatBytes(file.size)}; the limit is ${formatBytes(state.maxBytes)}.`)
      return
    }
    const query = new URLSearchParams({ ...target, name })
    if (state.link) query.set('link', state.link)
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `api/upload?${query}`)
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream')
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) progress(state, index, e.loaded / e.total)
    }
    xhr.onload = () =>
      resolve(xhr.status === 201 ? undefined : `${name}: ${errorText(xhr.responseText, xhr.status)}`)
    xhr.onerror = () => resolve(`${name}: the upload failed (network error).`)
    xhr.onabort = () => resolve('aborted')
    signal.addEventListener('abort', () => xhr.abort(), { once: true })
    // A slice, not the File itself: Chromium's XHR sends a File chosen from disk as a file
    // path, which only the host page's renderer may read; from this cross-site frame the
    // request fails with net::ERR_ACCESS_DENIED. A slice is a plain Blob, read through the
    // blob registry by any holder, and costs no copy.
    xhr.send(file.slice(0, file.size, file.type))
  })
}

/** An address, for the server to fetch and store (`POST api/upload-url`). */
async function sendAddress(
  state: PageState,
  url: string,
  target: Target,
  signal: AbortSignal,
): Promise<Sent> {
  const response = await fetch('api/upload-url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, ...target, ...(state.link ? { link: state.link } : {}) }),
    signal,
  }).catch(() => undefined)
  if (response === undefined) return `${url}: the upload failed (network error).`
  return response.status === 201 ? undefined : `${url}: ${errorText(await response.text(), response.status)}`
}

/** The server's `{error}` text, or the status when the answer is not the server's JSON. */
function errorText(body: string, status: number): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown }
    if (typeof parsed.error === 'string') return parsed.error
  } catch {
    // Not our JSON (a proxy, an injected fault): fall back to the status.
  }
  return `the upload failed (HTTP ${status})`
}
