import { fail, refresh } from './lifecycle.ts'
import type { PageState } from './page-state.ts'

// Flow 1: the files the host sends, and one row with a progress bar for each.

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

export function fileName(file: Blob | string, index: number): string {
  if (typeof file === 'string') return file
  return file instanceof File && file.name ? file.name : `file-${index + 1}`
}

/** The `open` message's data: Files, or addresses with `isUrl`; anything else fails the page. */
export function receiveFiles(state: PageState, data: unknown): void {
  if (state.files !== null || state.phase !== 'choosing') return
  const d = objectOr(data) as { files?: unknown; options?: unknown }
  const options = objectOr(d.options) as { isUrl?: unknown; link?: unknown }
  const list = d.files
  const isUrl = options.isUrl === true
  state.link = typeof options.link === 'string' ? options.link : ''
  const valid =
    Array.isArray(list) &&
    list.length > 0 &&
    list.every((f) => (isUrl ? typeof f === 'string' : f instanceof Blob))
  if (!valid) {
    fail(
      state,
      isUrl
        ? 'The open message must carry a non-empty list of addresses (isUrl is true).'
        : 'The open message must carry a non-empty list of File objects (or isUrl: true with addresses).',
    )
    return
  }
  const files = list as Array<Blob | string>
  state.files = files
  const note = document.getElementById('files-note')
  if (note) note.textContent = `${files.length} ${files.length === 1 ? 'file' : 'files'} to upload`
  const listElement = document.getElementById('file-list')
  files.forEach((file, index) => {
    const row = fileRow(file, index)
    listElement?.append(row)
    state.rows.push(row)
  })
  refresh(state)
}

/** A file's progress (null: unknown, as for an address fetched by the server) and state. */
export function progress(state: PageState, index: number, fraction: number | null, rowState?: string): void {
  const row = state.rows[index]
  const bar = row?.querySelector('progress')
  if (!row || !bar) return
  if (fraction === null) bar.removeAttribute('value')
  else bar.value = fraction
  if (rowState) row.dataset.state = rowState
}

function fileRow(file: Blob | string, index: number): HTMLLIElement {
  const row = document.createElement('li')
  row.className = 'file'
  row.dataset.state = 'waiting'
  const name = document.createElement('span')
  name.className = 'file-name'
  name.textContent = fileName(file, index)
  name.title = name.textContent
  const size = document.createElement('span')
  size.className = 'file-size'
  size.textContent = typeof file === 'string' ? 'address' : formatBytes(file.size)
  const bar = document.createElement('progress')
  bar.max = 1
  bar.value = 0
  bar.setAttribute('aria-label', `Progress of ${name.textContent}`)
  row.append(name, size, bar)
  return row
}

function objectOr(value: unknown): object {
  return typeof value === 'object' && value !== null ? value : {}
}
