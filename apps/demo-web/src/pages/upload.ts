import { type FolderChoice, pickFolder, SelectorError, uploadWithSelector } from '@service-sdk/selector'
import { parse } from '../api/client.ts'
import type { SavedAsset, Space, UploadResponse, UploadUpdate } from '../api/types.ts'
import type { Page, PageContext } from '../context.ts'
import { announce, h, icon, render } from '../dom.ts'
import { formatBytes, formatEta, formatRate, shortId } from '../format.ts'
import { alertBox, apiError, badge, busy, button, card, emptyState, field, pageHeader } from '../ui.ts'

/** Files going up through the server at once (each holds a connection; the browser allows 6). */
const CONCURRENCY = 3

export const uploadPage: Page = {
  path: '/upload',
  title: 'Upload',
  label: 'Upload',
  icon: 'upload',
  description:
    'Both upload flows: the folder selector uploads the files itself (flow 1), or it only picks the folder and your server uploads through the open API (flow 2).',
  mount(main, context) {
    const flow1 = flowOne(context)
    // Uploads through the server keep going while the user looks at other pages.
    flow2 ??= flowTwo(context)
    render(
      main,
      pageHeader('Upload', uploadPage.description),
      h('div', { class: 'stack' }, flow1.element, flow2.element),
    )
    return () => {
      flow1.stop()
      flow2?.detach()
    }
  },
}

let flow2: ReturnType<typeof flowTwo> | undefined

const theme = () => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')

async function spaceName(context: PageContext, orgId: string | null): Promise<string> {
  // No orgId, or orgId 1: the personal space.
  if (orgId === null || orgId === '1') return 'Personal space'
  try {
    return (await context.spaces()).find((s: Space) => s.id === orgId)?.name ?? `Space ${orgId}`
  } catch {
    return `Space ${orgId}`
  }
}

function selectorFailure(error: unknown): string {
  if (SelectorError.isInstance(error)) {
    if (error.code === 'timeout')
      return 'The folder selector did not load. Is the selector app reachable from this browser?'
    return error.message
  }
  return error instanceof Error ? error.message : String(error)
}

/** A file picker that also takes dropped files. */
function filePicker(options: { label: string; onChange(files: File[]): void }) {
  const input = h('input', {
    type: 'file',
    multiple: true,
    class: 'visually-hidden',
    'aria-label': options.label,
  })
  const list = h('ul', { class: 'file-chips', 'aria-label': 'Chosen files' })
  let files: File[] = []
  const set = (chosen: File[]) => {
    files = chosen
    render(
      list,
      files.map((f) =>
        h(
          'li',
          { class: 'file-chip' },
          icon('file'),
          h('span', { class: 'file-name' }, f.name),
          h('span', { class: 'muted' }, formatBytes(f.size)),
        ),
      ),
    )
    options.onChange(files)
  }
  input.addEventListener('change', () => set([...(input.files ?? [])]))
  const zone = h(
    'label',
    { class: 'dropzone' },
    input,
    icon('upload'),
    h('span', null, h('strong', null, 'Choose files'), ' or drop them here'),
  )
  zone.addEventListener('dragover', (e) => {
    e.preventDefault()
    zone.classList.add('dragging')
  })
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'))
  zone.addEventListener('drop', (e) => {
    e.preventDefault()
    zone.classList.remove('dragging')
    set([...(e.dataTransfer?.files ?? [])])
  })
  return {
    element: h('div', { class: 'picker' }, zone, list),
    get files() {
      return files
    },
    clear() {
      input.value = ''
      set([])
    },
  }
}

// ---- Flow 1: the selector uploads ------------------------------------------------------------

function flowOne(context: PageContext) {
  const controller = new AbortController()
  const result = h('div', { class: 'form-result' })
  const link = field({
    label: 'Related link',
    name: 'link',
    type: 'url',
    placeholder: 'https://example.com/post/42',
    hint: 'Saved with the assets as their source link.',
  })
  const start = button([icon('folder'), 'Choose a folder and upload'], () => run(), {
    variant: 'primary',
    disabled: true,
  })
  const picker = filePicker({
    label: 'Files for the selector to upload',
    onChange: (files) => {
      start.disabled = files.length === 0
    },
  })

  const run = async () => {
    result.replaceChildren()
    link.setError(undefined)
    const url = link.input.value.trim()
    if (url !== '' && !/^https?:\/\//i.test(url)) {
      link.setError('Enter an http(s) address, or leave it empty.')
      link.input.focus()
      return
    }
    const files = picker.files
    try {
      const choice = await busy(start, 'The selector is open…', () =>
        uploadWithSelector({
          appUrl: context.info.appUrl,
          files,
          ...(url ? { link: url } : {}),
          signal: controller.signal,
        }),
      )
      if (choice === null) {
        result.replaceChildren(alertBox('info', 'Cancelled: nothing was uploaded.'))
        return
      }
      const space = await spaceName(context, choice.orgId)
      const names = files.map((f) => f.name).join(', ')
      result.replaceChildren(
        alertBox(
          'success',
          `The selector uploaded ${files.length === 1 ? '1 file' : `${files.length} files`}`,
          h(
            'p',
            null,
            `${names} → folder `,
            h('code', { title: choice.folderId }, shortId(choice.folderId)),
            ` in ${space}.`,
          ),
          h(
            'p',
            null,
            'The service’s callbacks and asset events for them arrive on the ',
            h('a', { href: '#/events' }, 'Events page'),
            '.',
          ),
        ),
      )
      announce('The selector uploaded the files.', 'success')
      picker.clear()
      // Future uploads into this folder send content callbacks too.
      if (choice.folderId !== '0')
        void fetch('/api/folders/watch', jsonPost({ folderId: choice.folderId })).catch(() => {})
    } catch (error) {
      if (controller.signal.aborted) return
      result.replaceChildren(
        alertBox('danger', 'The selector could not upload the files', h('p', null, selectorFailure(error))),
      )
    }
  }

  const element = card(
    {
      title: 'Flow 1 · The selector uploads',
      subtitle:
        'Your page hands the files to the service’s folder selector; the user picks a folder and the selector uploads them itself.',
    },
    h(
      'div',
      { class: 'flow' },
      picker.element,
      link.wrapper,
      h('div', { class: 'form-actions' }, start),
      result,
    ),
  )
  return { element, stop: () => controller.abort() }
}

// ---- Flow 2: pick a folder, upload through the server ----------------------------------------

interface Item {
  id: string
  file: File
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  update: UploadUpdate | undefined
  asset?: SavedAsset
  error?: string
  controller: AbortController
  row: HTMLElement
}

function flowTwo(context: PageContext) {
  let controller = new AbortController()
  let choice: FolderChoice | undefined
  const items: Item[] = []
  let active = 0

  const chosen = h('div', { class: 'chosen-folder' })
  const folderResult = h('div', { class: 'form-result' })
  const showChoice = async () => {
    if (!choice) {
      render(chosen, h('span', { class: 'muted' }, 'No folder chosen yet.'))
      return
    }
    const space = await spaceName(context, choice.orgId)
    render(
      chosen,
      icon('folder'),
      h(
        'span',
        null,
        'Folder ',
        h('code', { title: choice.folderId }, choice.folderId === '0' ? 'root' : shortId(choice.folderId)),
        ' in ',
        h('strong', null, space),
      ),
    )
  }
  const pick = button([icon('folder'), 'Choose a folder…'], async () => {
    folderResult.replaceChildren()
    controller = new AbortController()
    try {
      const picked = await busy(pick, 'The selector is open…', () =>
        pickFolder({ appUrl: context.info.appUrl, theme: theme(), signal: controller.signal }),
      )
      if (picked) {
        choice = picked
        await showChoice()
        updateStart()
      }
    } catch (error) {
      if (controller.signal.aborted) return
      folderResult.replaceChildren(
        alertBox('danger', 'The folder selector failed', h('p', null, selectorFailure(error))),
      )
    }
  })

  const picker = filePicker({ label: 'Files to upload through the server', onChange: () => updateStart() })
  const start = button([icon('upload'), 'Upload'], () => enqueue(), { variant: 'primary', disabled: true })
  const updateStart = () => {
    const n = picker.files.length
    start.disabled = n === 0 || !choice
    start.lastChild!.textContent = n > 1 ? `Upload ${n} files` : 'Upload'
  }

  const queue = h('ul', { class: 'upload-list', 'aria-label': 'Uploads' })
  const queueEmpty = emptyState(
    'upload',
    'Nothing uploaded yet',
    'Choose a folder and files, then Upload. Each file streams to the server, which uploads it with open.upload and saves the asset.',
  )
  const queueSlot = h('div', null, queueEmpty)
  const clearDone = button(
    'Clear finished',
    () => {
      for (const item of [...items]) {
        if (item.state === 'queued' || item.state === 'running') continue
        item.row.remove()
        items.splice(items.indexOf(item), 1)
      }
      if (items.length === 0) render(queueSlot, queueEmpty)
    },
    { small: true, variant: 'ghost' },
  )

  const stopUpdates = context.live.onUpload((update) => {
    const item = items.find((i) => i.id === update.id)
    if (item?.state !== 'running') return
    item.update = update
    paint(item)
  })

  const enqueue = () => {
    if (!choice) return
    const { info } = context
    for (const file of picker.files) {
      const item: Item = {
        id: crypto.randomUUID(),
        file,
        state: 'queued',
        update: undefined,
        controller: new AbortController(),
        row: h('li', { class: 'upload-item' }),
      }
      if (file.size === 0) {
        item.state = 'failed'
        item.error = 'The file is empty: there is nothing to upload.'
      } else if (file.size > info.maxUploadBytes) {
        item.state = 'failed'
        item.error = `Larger than this server accepts (${formatBytes(info.maxUploadBytes)}).`
      }
      items.push(item)
      if (queueSlot.firstChild !== queue) render(queueSlot, queue)
      queue.appendChild(item.row)
      paint(item)
    }
    picker.clear()
    pump()
  }

  const pump = () => {
    while (active < CONCURRENCY) {
      const next = items.find((i) => i.state === 'queued')
      if (!next) return
      active++
      void send(next, choice!).finally(() => {
        active--
        pump()
      })
    }
  }

  const send = async (item: Item, target: FolderChoice) => {
    item.state = 'running'
    paint(item)
    const query = new URLSearchParams({
      name: item.file.name,
      folderId: target.folderId,
      // The personal space may come without an orgId: then none is sent.
      ...(target.orgId !== null && { orgId: target.orgId }),
    })
    try {
      const response = await fetch(`/api/uploads?${query}`, {
        method: 'POST',
        body: item.file,
        headers: {
          'content-type': 'application/octet-stream',
          'x-upload-id': item.id,
          'x-demo-client': context.live.clientId,
        },
        signal: item.controller.signal,
      })
      const { asset } = await parse<UploadResponse>(response)
      item.state = 'done'
      item.asset = asset
      announce(`${item.file.name} saved.`, 'success')
    } catch (error) {
      if (item.controller.signal.aborted) {
        item.state = 'cancelled'
      } else {
        const e = apiError(error)
        item.state = e.code === 'cancelled' ? 'cancelled' : 'failed'
        item.error =
          e.code === 'network' || e.status === 0 ? 'The connection to the server was lost.' : e.message
      }
    }
    paint(item)
  }

  const cancel = (item: Item) => {
    if (item.state === 'queued') {
      item.state = 'cancelled'
      paint(item)
      return
    }
    if (item.state !== 'running') return
    // Tell the server first (it aborts the upload and its multipart upload), then stop sending.
    void fetch(`/api/uploads/${encodeURIComponent(item.id)}`, {
      method: 'DELETE',
      headers: { 'x-demo-client': context.live.clientId },
    }).catch(() => {})
    item.controller.abort()
  }

  /** Pause or resume on the server: parts sending finish, no new one starts. */
  const setPaused = (item: Item, paused: boolean) => {
    void fetch(`/api/uploads/${encodeURIComponent(item.id)}/${paused ? 'pause' : 'resume'}`, {
      method: 'POST',
      headers: { 'x-demo-client': context.live.clientId },
    }).catch(() => {})
  }
  /** A failed or cancelled file goes back in the queue: the page sends it again (a new upload). */
  const retry = (item: Item) => {
    item.id = crypto.randomUUID()
    item.controller = new AbortController()
    item.state = 'queued'
    item.update = undefined
    delete item.error
    paint(item)
    pump()
  }

  const paint = (item: Item) => {
    const update = item.update
    const total = update?.total ?? item.file.size
    const loaded = item.state === 'done' ? total : Math.min(update?.loaded ?? 0, total)
    const percent = total > 0 ? Math.floor((loaded / total) * 100) : 0
    const status = (() => {
      switch (item.state) {
        case 'queued':
          return 'Waiting…'
        case 'running':
          switch (update?.phase) {
            case undefined:
            case 'receiving':
              return 'Starting…'
            case 'credentials':
              return 'Getting upload credentials…'
            case 'uploading':
              if (update.paused)
                return `Paused at ${percent}% · ${formatBytes(loaded)} of ${formatBytes(total)}`
              return [
                `Uploading ${percent}%`,
                `${formatBytes(loaded)} of ${formatBytes(total)}`,
                update.rate ? formatRate(update.rate) : undefined,
                update.etaMs !== null && update.etaMs !== undefined ? formatEta(update.etaMs) : undefined,
              ]
                .filter(Boolean)
                .join(' · ')
            case 'saving':
              return 'Saving the asset…'
            default:
              return 'Finishing…'
          }
        case 'done':
          return `Saved · ${formatBytes(item.asset?.size ?? total)}`
        case 'cancelled':
          return 'Cancelled'
        case 'failed':
          return item.error ?? 'Failed'
      }
    })()
    const tone =
      item.state === 'done'
        ? 'success'
        : item.state === 'failed'
          ? 'danger'
          : item.state === 'cancelled'
            ? 'warning'
            : 'info'
    const progress = h('progress', {
      class: `progress progress-${tone}`,
      max: 100,
      value: item.state === 'done' ? 100 : percent,
      'aria-label': `Upload progress of ${item.file.name}`,
    })
    if (
      item.state === 'running' &&
      (update?.phase === undefined || update.phase === 'receiving' || update.phase === 'credentials')
    ) {
      progress.removeAttribute('value')
    }
    render(
      item.row,
      h('div', { class: 'upload-icon' }, icon('file')),
      h(
        'div',
        { class: 'upload-main' },
        h(
          'div',
          { class: 'upload-line' },
          h('span', { class: 'file-name', title: item.file.name }, item.file.name),
          h('span', { class: 'muted' }, formatBytes(item.file.size)),
        ),
        progress,
        h(
          'div',
          { class: `upload-status status-${tone}`, 'aria-live': item.state === 'running' ? 'off' : 'polite' },
          status,
        ),
      ),
      h(
        'div',
        { class: 'upload-actions' },
        item.state === 'done' && item.asset
          ? h(
              'a',
              {
                class: 'btn btn-secondary btn-sm',
                href: item.asset.accessUrl,
                target: '_blank',
                rel: 'noopener noreferrer',
              },
              icon('external'),
              'Open asset',
            )
          : null,
        item.state === 'running' && update?.phase === 'uploading'
          ? update.paused
            ? button('Resume', () => setPaused(item, false), {
                small: true,
                variant: 'secondary',
                ariaLabel: `Resume ${item.file.name}`,
              })
            : button('Pause', () => setPaused(item, true), {
                small: true,
                variant: 'ghost',
                ariaLabel: `Pause ${item.file.name}`,
              })
          : null,
        item.state === 'failed' || item.state === 'cancelled'
          ? button('Retry', () => retry(item), {
              small: true,
              variant: 'secondary',
              ariaLabel: `Retry ${item.file.name}`,
            })
          : null,
        item.state === 'queued' || item.state === 'running'
          ? button([icon('x'), 'Cancel'], () => cancel(item), {
              small: true,
              variant: 'ghost',
              ariaLabel: `Cancel ${item.file.name}`,
            })
          : null,
        item.state === 'done' ? badge('Saved', 'success') : null,
      ),
    )
    item.row.dataset.state = item.state
  }

  void showChoice()
  const element = card(
    {
      title: 'Flow 2 · Upload through your server',
      subtitle:
        'The selector only picks the folder; each file streams to this demo’s server, which uploads it with open.upload (credentials, object storage, material-save). Progress comes back live.',
      actions: clearDone,
    },
    h(
      'ol',
      { class: 'steps' },
      h(
        'li',
        null,
        h('h3', null, 'Target folder'),
        h('div', { class: 'step-row' }, pick, chosen),
        folderResult,
      ),
      h('li', null, h('h3', null, 'Files'), picker.element),
      h('li', null, h('h3', null, 'Upload'), h('div', { class: 'form-actions' }, start)),
    ),
    queueSlot,
  )
  return {
    element,
    /** The page is left: a selector session still open goes away; uploads carry on. */
    detach() {
      controller.abort()
    },
    stop() {
      controller.abort()
      stopUpdates()
      for (const item of items) if (item.state === 'queued' || item.state === 'running') cancel(item)
    },
  }
}

function jsonPost(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
}
