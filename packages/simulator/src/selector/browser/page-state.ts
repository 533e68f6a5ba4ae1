import { SimError } from '../../http/sim-error.ts'
import { type MessageFamily, parseFamilies } from './message-families.ts'

/** Where the page is in its one run: choosing a folder, uploading into it, or finished. */
export type Phase = 'choosing' | 'uploading' | 'done'

/**
 * Everything the page knows, in one object the module-level functions of this folder take:
 * what the server rendered into `<html data-*>` (read once), the elements it drives, and what
 * happened so far.
 */
export interface PageState {
  readonly root: HTMLElement
  /** `upload`: flow 1, the page uploads the files it is sent. `choose`: flow 2. */
  readonly flow: 'upload' | 'choose'
  readonly families: readonly MessageFamily[]
  readonly maxBytes: number
  /** The embedding window, or null when the page is opened on its own. */
  readonly host: Window | null
  readonly tree: HTMLUListElement
  readonly status: HTMLParagraphElement
  readonly confirmButton: HTMLButtonElement
  readonly cancelButton: HTMLButtonElement
  phase: Phase
  selected: HTMLElement | null
  /** Flow 1: what the host sent (Files, or addresses when `isUrl`), null until it has. */
  files: Array<Blob | string> | null
  link: string
  /** The origin of the first message accepted from the host: later ones must come from it too. */
  hostOrigin: string | null
  uploads: AbortController | null
  /** Flow 1: one row per file, in the order sent. */
  rows: HTMLLIElement[]
}

/** The state of the page as the server rendered it, before anything happened. */
export function readPage(): PageState {
  const root = document.documentElement
  return {
    root,
    flow: root.dataset.flow === 'upload' ? 'upload' : 'choose',
    families: parseFamilies(root.dataset.families ?? ''),
    maxBytes: Number(root.dataset.maxBytes) || Number.POSITIVE_INFINITY,
    host: window.parent !== window ? window.parent : null,
    tree: byId<HTMLUListElement>('tree'),
    status: byId<HTMLParagraphElement>('status'),
    confirmButton: byId<HTMLButtonElement>('confirm'),
    cancelButton: byId<HTMLButtonElement>('cancel'),
    phase: 'choosing',
    selected: null,
    files: null,
    link: '',
    hostOrigin: null,
    uploads: null,
    rows: [],
  }
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found) throw new SimError('internal', `The selector page has no #${id}`)
  return found as T
}
