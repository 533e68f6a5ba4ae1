import { post } from './messages.ts'
import type { PageState } from './page-state.ts'

/** The status line, and its kind (`ok`, `error` or none) for the stylesheet. */
export function say(state: PageState, text: string, kind = ''): void {
  state.status.textContent = text
  state.status.dataset.kind = kind
}

/** The buttons and the status line, from the state. */
export function refresh(state: PageState): void {
  const { files, phase, flow } = state
  const haveFiles = flow === 'choose' || (files !== null && files.length > 0)
  state.confirmButton.disabled = phase !== 'choosing' || state.selected === null || !haveFiles
  state.cancelButton.disabled = phase === 'done'
  if (phase !== 'choosing') return
  const path = state.selected?.dataset.path
  if (!path) say(state, 'Select a folder.')
  else if (flow === 'choose') say(state, `Selected: ${path}`)
  else if (!haveFiles) say(state, `Upload to: ${path}. Waiting for the files…`)
  else say(state, `Upload ${files?.length === 1 ? 'the file' : `${files?.length} files`} to: ${path}`)
}

/** Selects `item` if it may be written to; says why not otherwise. */
export function select(state: PageState, item: HTMLElement, items: readonly HTMLElement[]): boolean {
  if (state.phase !== 'choosing') return false
  if (item.getAttribute('aria-disabled') === 'true') {
    say(state, item.dataset.why ?? 'You cannot upload here.', 'error')
    return false
  }
  for (const other of items) other.setAttribute('aria-selected', String(other === item))
  state.selected = item
  refresh(state)
  return true
}

/** Reports the selected folder: flow 2 once confirmed, flow 1 once every file is uploaded. */
export function succeed(state: PageState): void {
  const { selected } = state
  if (!selected) return
  state.phase = 'done'
  post(state, 'success', {
    payLoad: { id: wire(state, selected.dataset.folder), ...orgOf(state, selected.dataset.org) },
  })
  say(
    state,
    state.flow === 'upload' ? `Uploaded to ${selected.dataset.path}.` : `Chosen: ${selected.dataset.path}`,
    'ok',
  )
  lock(state)
}

export function fail(state: PageState, message: string): void {
  state.phase = 'done'
  post(state, 'error', { message })
  say(state, message, 'error')
  lock(state)
}

export function cancel(state: PageState): void {
  if (state.phase === 'done') return
  state.phase = 'done'
  state.uploads?.abort()
  post(state, 'cancel')
  say(state, 'Cancelled.')
  lock(state)
}

function lock(state: PageState): void {
  state.tree.setAttribute('aria-disabled', 'true')
  refresh(state)
}

/**
 * An id as the page reports it: an exact JSON number when it fits in a double, else a decimal
 * string; with the `selectorIds: 'numbers'` quirk, always a number (rounded beyond 2^53).
 */
function wire(state: PageState, id: string | undefined): number | string | undefined {
  const n = Number(id)
  return Number.isSafeInteger(n) || state.root.dataset.ids === 'numbers' ? n : id
}

/** The personal space (orgId 1) is reported without orgId under `selectorPersonalOrg: 'absent'`. */
function orgOf(state: PageState, org: string | undefined): { orgId?: number | string | undefined } {
  return org === '1' && state.root.dataset.personalOrg === 'absent' ? {} : { orgId: wire(state, org) }
}
