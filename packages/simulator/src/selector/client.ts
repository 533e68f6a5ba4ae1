/**
 * The selector page's behaviour, in the browser. It is served as its own source text
 * (`CLIENT_SCRIPT`), so it must not use anything from outside this function: no imports, no
 * module-level names, only the browser's globals. It is written in TypeScript with erasable
 * syntax only, so every runtime and bundler turns it into plain JavaScript by removing types.
 *
 * What it does (interface §6.1): posts the lifecycle messages of the configured families to its
 * parent with target `'*'` (as the real page does; the embedder checks origins), accepts
 * `service-choiceModal-init` (theme) and, in flow 1, `open` (files) from its parent window only,
 * lets the user pick a writable folder, and in flow 1 uploads the files through this origin's
 * `api/upload` endpoints before reporting success with `{id: folderId, orgId}`.
 */
export function selectorClient(): void {
  const PREFIX = 'service'
  const TYPES: Record<string, Record<string, string>> = {
    choiceModal: {
      loaded: 'choiceModal-loaded',
      unMounted: 'choiceModal-unMounted',
      cancel: 'choiceModal-cancel',
      success: 'choiceModal-success',
      error: 'choiceModal-error',
    },
    selector: {
      init: 'selector-init',
      loaded: 'selector-loaded',
      unMounted: 'selector-page-unMounted',
      cancel: 'selector-page-cancel',
      success: 'selector-page-success',
      error: 'selector-page-error',
    },
  }

  const root = document.documentElement
  const flow = root.dataset.flow === 'upload' ? 'upload' : 'choose'
  const families = (root.dataset.families ?? '').split(' ').filter((f) => f in TYPES)
  const maxBytes = Number(root.dataset.maxBytes) || Number.POSITIVE_INFINITY
  const host = window.parent !== window ? window.parent : null

  const byId = <T extends HTMLElement>(id: string): T => {
    const found = document.getElementById(id)
    if (!found) throw new Error(`The selector page has no #${id}`)
    return found as T
  }
  const tree = byId<HTMLUListElement>('tree')
  const status = byId<HTMLParagraphElement>('status')
  const confirmButton = byId<HTMLButtonElement>('confirm')
  const cancelButton = byId<HTMLButtonElement>('cancel')

  let phase: 'choosing' | 'uploading' | 'done' = 'choosing'
  let selected: HTMLElement | null = null
  let files: Array<Blob | string> | null = null
  let isUrl = false
  let link = ''
  // The origin of the first message accepted from the parent: later ones must come from it too.
  let hostOrigin: string | null = null
  let uploads: AbortController | null = null
  const rows: HTMLLIElement[] = []

  function post(event: string, extra: Record<string, unknown> = {}): void {
    if (!host) return
    for (const family of families) {
      const type = TYPES[family]?.[event]
      // Target '*', as the real page posts: the embedder checks event.origin and event.source.
      if (type) host.postMessage({ type: `${PREFIX}-${type}`, ...extra }, '*')
    }
  }

  function say(text: string, kind = ''): void {
    status.textContent = text
    status.dataset.kind = kind
  }

  const items = () => Array.from(tree.querySelectorAll<HTMLElement>('[role="treeitem"]'))
  // Shown: no collapsed ancestor (the item's own aria-expanded concerns its children only).
  const shown = () => items().filter((item) => !item.parentElement?.closest('[aria-expanded="false"]'))
  const itemOf = (node: EventTarget | null) =>
    node instanceof Element ? node.closest<HTMLElement>('[role="treeitem"]') : null
  const disabled = (item: HTMLElement) => item.getAttribute('aria-disabled') === 'true'
  const parentItem = (item: HTMLElement) => itemOf(item.parentElement)
  const firstChild = (item: HTMLElement) =>
    item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]')

  function focusItem(item: HTMLElement): void {
    for (const other of items()) other.tabIndex = other === item ? 0 : -1
    item.focus()
  }

  function setExpanded(item: HTMLElement, expanded: boolean): void {
    if (item.hasAttribute('aria-expanded')) item.setAttribute('aria-expanded', String(expanded))
  }

  function refresh(): void {
    const haveFiles = flow === 'choose' || (files !== null && files.length > 0)
    confirmButton.disabled = phase !== 'choosing' || selected === null || !haveFiles
    cancelButton.disabled = phase === 'done'
    if (phase !== 'choosing') return
    const path = selected?.dataset.path
    if (!path) say('Select a folder.')
    else if (flow === 'choose') say(`Selected: ${path}`)
    else if (!haveFiles) say(`Upload to: ${path}. Waiting for the files…`)
    else say(`Upload ${files?.length === 1 ? 'the file' : `${files?.length} files`} to: ${path}`)
  }

  function select(item: HTMLElement): boolean {
    if (phase !== 'choosing') return false
    if (disabled(item)) {
      say(item.dataset.why ?? 'You cannot upload here.', 'error')
      return false
    }
    for (const other of items()) other.setAttribute('aria-selected', String(other === item))
    selected = item
    refresh()
    return true
  }

  // Ids as the page reports them: exact JSON numbers when they fit in a double, else decimal
  // strings; with the `selectorIds: 'numbers'` quirk, always numbers (rounded beyond 2^53).
  const wire = (id: string | undefined) => {
    const n = Number(id)
    return Number.isSafeInteger(n) || root.dataset.ids === 'numbers' ? n : id
  }
  // The personal space (orgId 1), reported without orgId under `selectorPersonalOrg: 'absent'`.
  const orgOf = (org: string | undefined) =>
    org === '1' && root.dataset.personalOrg === 'absent' ? {} : { orgId: wire(org) }

  function lock(): void {
    tree.setAttribute('aria-disabled', 'true')
    refresh()
  }

  function succeed(): void {
    if (!selected) return
    phase = 'done'
    post('success', { payLoad: { id: wire(selected.dataset.folder), ...orgOf(selected.dataset.org) } })
    say(
      flow === 'upload' ? `Uploaded to ${selected.dataset.path}.` : `Chosen: ${selected.dataset.path}`,
      'ok',
    )
    lock()
  }

  function fail(message: string): void {
    phase = 'done'
    post('error', { message })
    say(message, 'error')
    lock()
  }

  function cancel(): void {
    if (phase === 'done') return
    phase = 'done'
    uploads?.abort()
    post('cancel')
    say('Cancelled.')
    lock()
  }

  // ---- Flow 1: files from the host, uploaded here ----

  function formatBytes(n: number): string {
    if (n < 1024) return `${n} B`
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
    return `${(n / 1024 / 1024).toFixed(1)} MB`
  }

  function fileName(file: Blob | string, index: number): string {
    if (typeof file === 'string') return file
    return file instanceof File && file.name ? file.name : `file-${index + 1}`
  }

  function receiveFiles(data: unknown): void {
    if (files !== null || phase !== 'choosing') return
    const d = (typeof data === 'object' && data !== null ? data : {}) as {
      files?: unknown
      options?: unknown
    }
    const options = (typeof d.options === 'object' && d.options !== null ? d.options : {}) as {
      isUrl?: unknown
      link?: unknown
    }
    const list = d.files
    isUrl = options.isUrl === true
    link = typeof options.link === 'string' ? options.link : ''
    const valid =
      Array.isArray(list) &&
      list.length > 0 &&
      list.every((f) => (isUrl ? typeof f === 'string' : f instanceof Blob))
    if (!valid) {
      fail(
        isUrl
          ? 'The open message must carry a non-empty list of addresses (isUrl is true).'
          : 'The open message must carry a non-empty list of File objects (or isUrl: true with addresses).',
      )
      return
    }
    files = list as Array<Blob | string>
    const note = document.getElementById('files-note')
    if (note) note.textContent = `${files.length} ${files.length === 1 ? 'file' : 'files'} to upload`
    const listElement = document.getElementById('file-list')
    files.forEach((file, index) => {
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
      listElement?.append(row)
      rows.push(row)
    })
    refresh()
  }

  function progress(index: number, fraction: number | null, state?: string): void {
    const row = rows[index]
    const bar = row?.querySelector('progress')
    if (!row || !bar) return
    if (fraction === null) bar.removeAttribute('value')
    else bar.value = fraction
    if (state) row.dataset.state = state
  }

  function errorText(body: string, status: number): string {
    try {
      const parsed = JSON.parse(body) as { error?: unknown }
      if (typeof parsed.error === 'string') return parsed.error
    } catch {
      // Not our JSON (a proxy, an injected fault): fall back to the status.
    }
    return `the upload failed (HTTP ${status})`
  }

  function sendFile(file: Blob, index: number, target: Record<string, string>, signal: AbortSignal) {
    return new Promise<void>((resolve, reject) => {
      const name = fileName(file, index)
      if (file.size > maxBytes) {
        reject(new Error(`${name} is ${formatBytes(file.size)}; the limit is ${formatBytes(maxBytes)}.`))
        return
      }
      const query = new URLSearchParams({ ...target, name })
      if (link) query.set('link', link)
      const xhr = new XMLHttpRequest()
      xhr.open('POST', `api/upload?${query}`)
      xhr.setRequestHeader('content-type', file.type || 'application/octet-stream')
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) progress(index, e.loaded / e.total)
      }
      xhr.onload = () => {
        if (xhr.status === 201) resolve()
        else reject(new Error(`${name}: ${errorText(xhr.responseText, xhr.status)}`))
      }
      xhr.onerror = () => reject(new Error(`${name}: the upload failed (network error).`))
      xhr.onabort = () => reject(new Error('aborted'))
      signal.addEventListener('abort', () => xhr.abort(), { once: true })
      // A slice, not the File itself: Chromium's XHR sends a File chosen from disk as a file
      // path, which only the host page's renderer may read; from this cross-site frame the
      // request fails with net::ERR_ACCESS_DENIED. A slice is a plain Blob, read through the
      // blob registry by any holder, and costs no copy.
      xhr.send(file.slice(0, file.size, file.type))
    })
  }

  async function sendAddress(url: string, target: Record<string, string>, signal: AbortSignal) {
    const response = await fetch('api/upload-url', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, ...target, ...(link ? { link } : {}) }),
      signal,
    }).catch(() => {
      throw new Error(`${url}: the upload failed (network error).`)
    })
    if (response.status !== 201)
      throw new Error(`${url}: ${errorText(await response.text(), response.status)}`)
  }

  async function upload(): Promise<void> {
    if (!selected || !files || phase !== 'choosing') return
    phase = 'uploading'
    tree.setAttribute('aria-disabled', 'true')
    refresh()
    const controller = new AbortController()
    uploads = controller
    const target = { orgId: selected.dataset.org ?? '', folderId: selected.dataset.folder ?? '' }
    const list = files
    for (const [index, file] of list.entries()) {
      if (phase !== 'uploading') return
      say(`Uploading ${index + 1} of ${list.length}: ${fileName(file, index)}…`)
      progress(index, typeof file === 'string' ? null : 0, 'uploading')
      try {
        if (typeof file === 'string') await sendAddress(file, target, controller.signal)
        else await sendFile(file, index, target, controller.signal)
        progress(index, 1, 'done')
      } catch (error) {
        // Cancelled meanwhile: the cancel message has been posted already.
        if (phase !== 'uploading') return
        progress(index, 0, 'failed')
        fail(error instanceof Error ? error.message : String(error))
        return
      }
    }
    if (phase === 'uploading') succeed()
  }

  // ---- Messages from the embedding page ----

  addEventListener('message', (event) => {
    // Only the window that embeds us, and once it has spoken, only from the same origin.
    if (!host || event.source !== host) return
    if (hostOrigin !== null && event.origin !== hostOrigin) return
    const data = event.data as { type?: unknown; data?: unknown } | null
    if (typeof data !== 'object' || data === null) return
    if (data.type === `${PREFIX}-choiceModal-init`) {
      hostOrigin = event.origin
      const theme = (data.data as { theme?: unknown } | undefined)?.theme
      root.dataset.theme = theme === 'dark' ? 'dark' : 'light'
    } else if (data.type === 'open' && flow === 'upload') {
      hostOrigin = event.origin
      receiveFiles(data.data)
    }
  })

  // ---- The tree: mouse and keyboard (the WAI-ARIA tree view pattern) ----

  tree.addEventListener('click', (event) => {
    const item = itemOf(event.target)
    if (!item || phase !== 'choosing') return
    if (event.target instanceof Element && event.target.closest('.twisty')) {
      setExpanded(item, item.getAttribute('aria-expanded') !== 'true')
      focusItem(item)
      return
    }
    focusItem(item)
    // A click on a collapsed folder also opens it, as file pickers do.
    if (select(item) && item.getAttribute('aria-expanded') === 'false') setExpanded(item, true)
  })

  tree.addEventListener('dblclick', (event) => {
    const item = itemOf(event.target)
    if (item && select(item) && !confirmButton.disabled) confirmButton.click()
  })

  tree.addEventListener('keydown', (event) => {
    const item = itemOf(document.activeElement)
    if (!item || phase !== 'choosing') return
    const list = shown()
    const at = list.indexOf(item)
    const go = (next: HTMLElement | null | undefined) => {
      if (next) focusItem(next)
    }
    switch (event.key) {
      case 'ArrowDown':
        go(list[at + 1])
        break
      case 'ArrowUp':
        go(list[at - 1])
        break
      case 'Home':
        go(list[0])
        break
      case 'End':
        go(list[list.length - 1])
        break
      case 'ArrowRight':
        if (item.getAttribute('aria-expanded') === 'false') setExpanded(item, true)
        else go(firstChild(item))
        break
      case 'ArrowLeft':
        if (item.getAttribute('aria-expanded') === 'true') setExpanded(item, false)
        else go(parentItem(item))
        break
      case 'Enter':
        // Enter on the selected folder confirms; on another, selects it.
        if (item === selected && !confirmButton.disabled) confirmButton.click()
        else select(item)
        break
      case ' ':
        select(item)
        break
      default:
        return
    }
    event.preventDefault()
  })

  confirmButton.addEventListener('click', () => {
    if (flow === 'choose') succeed()
    else void upload()
  })
  cancelButton.addEventListener('click', cancel)
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      cancel()
    }
  })
  addEventListener('pagehide', () => post('unMounted'))

  if (!host) say('Not embedded: this page posts its messages to an embedding page. Select a folder.')
  if (flow === 'upload') post('init')
  // Last: the host answers at once, and everything above is ready for it.
  post('loaded')
}

/** The script the page loads: the function above, run once. */
export const CLIENT_SCRIPT = `'use strict';(${selectorClient.toString()})();\n`
