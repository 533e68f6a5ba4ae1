import { type FolderChoice, pickFolder, SelectorError, uploadWithSelector } from '@service-sdk/selector'
import type { Space } from '../api/types.ts'
import type { Page, PageContext } from '../context.ts'
import { announce, h, icon, render } from '../dom.ts'
import { formatBytes, shortId } from '../format.ts'
import { alertBox, busy, button, card, field, pageHeader } from '../ui.ts'
import { UploadQueue } from './upload-queue.ts'

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

function flowTwo(context: PageContext) {
  let controller = new AbortController()
  let choice: FolderChoice | undefined
  const queue = new UploadQueue(context.live.clientId, () => choice)
  const chosen = h('div', { class: 'chosen-folder' })
  const folderResult = h('div', { class: 'form-result' })
  const picker = filePicker({ label: 'Files to upload through the server', onChange: () => updateStart() })
  const start = button(
    [icon('upload'), 'Upload'],
    () => {
      if (!choice) return
      queue.add(picker.files, context.info)
      picker.clear()
    },
    { variant: 'primary', disabled: true },
  )
  const updateStart = () => {
    const n = picker.files.length
    start.disabled = n === 0 || !choice
    start.lastChild!.textContent = n > 1 ? `Upload ${n} files` : 'Upload'
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
        await showChoice(chosen, context, choice)
        updateStart()
      }
    } catch (error) {
      if (controller.signal.aborted) return
      folderResult.replaceChildren(
        alertBox('danger', 'The folder selector failed', h('p', null, selectorFailure(error))),
      )
    }
  })
  const stopUpdates = context.live.onUpload((update) => queue.update(update))
  void showChoice(chosen, context, choice)
  const clearDone = button('Clear finished', () => queue.clearFinished(), { small: true, variant: 'ghost' })
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
    queue.slot,
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
      queue.cancelAll()
    },
  }
}

/** The chosen folder and its space, in words. */
async function showChoice(chosen: HTMLElement, context: PageContext, choice: FolderChoice | undefined) {
  if (!choice) {
    render(chosen, h('span', { class: 'muted' }, 'No folder chosen yet.'))
    return
  }
  const space = await spaceName(context, choice.orgId)
  const folder = choice.folderId === '0' ? 'root' : shortId(choice.folderId)
  render(
    chosen,
    icon('folder'),
    h(
      'span',
      null,
      'Folder ',
      h('code', { title: choice.folderId }, folder),
      ' in ',
      h('strong', null, space),
    ),
  )
}

function jsonPost(body: unknown): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
}
