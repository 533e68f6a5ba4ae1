import { select } from './lifecycle.ts'
import type { PageState } from './page-state.ts'

// The folder tree, by mouse and keyboard: the WAI-ARIA tree view pattern.

function items(state: PageState): HTMLElement[] {
  return Array.from(state.tree.querySelectorAll<HTMLElement>('[role="treeitem"]'))
}

/** Items shown: no collapsed ancestor (an item's own aria-expanded concerns its children only). */
function shown(state: PageState): HTMLElement[] {
  return items(state).filter((item) => !item.parentElement?.closest('[aria-expanded="false"]'))
}

function itemOf(node: EventTarget | null): HTMLElement | null {
  return node instanceof Element ? node.closest<HTMLElement>('[role="treeitem"]') : null
}

function firstChild(item: HTMLElement): HTMLElement | null {
  return item.querySelector<HTMLElement>(':scope > [role="group"] > [role="treeitem"]')
}

function focusItem(state: PageState, item: HTMLElement): void {
  for (const other of items(state)) other.tabIndex = other === item ? 0 : -1
  item.focus()
}

function setExpanded(item: HTMLElement, expanded: boolean): void {
  if (item.hasAttribute('aria-expanded')) item.setAttribute('aria-expanded', String(expanded))
}

function selectItem(state: PageState, item: HTMLElement): boolean {
  return select(state, item, items(state))
}

export function onTreeClick(state: PageState, event: MouseEvent): void {
  const item = itemOf(event.target)
  if (!item || state.phase !== 'choosing') return
  if (event.target instanceof Element && event.target.closest('.twisty')) {
    setExpanded(item, item.getAttribute('aria-expanded') !== 'true')
    focusItem(state, item)
    return
  }
  focusItem(state, item)
  // A click on a collapsed folder also opens it, as file pickers do.
  if (selectItem(state, item) && item.getAttribute('aria-expanded') === 'false') setExpanded(item, true)
}

export function onTreeDoubleClick(state: PageState, event: MouseEvent): void {
  const item = itemOf(event.target)
  if (item && selectItem(state, item) && !state.confirmButton.disabled) state.confirmButton.click()
}

export function onTreeKey(state: PageState, event: KeyboardEvent): void {
  const item = itemOf(document.activeElement)
  if (!item || state.phase !== 'choosing') return
  const list = shown(state)
  const at = list.indexOf(item)
  const go = (next: HTMLElement | null | undefined) => {
    if (next) focusItem(state, next)
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
      else go(itemOf(item.parentElement))
      break
    case 'Enter':
      // Enter on the selected folder confirms; on another, selects it.
      if (item === state.selected && !state.confirmButton.disabled) state.confirmButton.click()
      else selectItem(state, item)
      break
    case ' ':
      selectItem(state, item)
      break
    default:
      return
  }
  event.preventDefault()
}
