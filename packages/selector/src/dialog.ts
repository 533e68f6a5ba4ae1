/**
 * Puts the frame on screen: inline in `container`, or in a modal `<dialog>`. `showModal()` puts it
 * in the top layer (above any z-index), makes the rest of the page inert, and closes on Escape.
 * Returns the function that takes it down again and returns focus where it was.
 */
export function mount(frame: HTMLIFrameElement, container: HTMLElement | undefined, onClose: () => void) {
  if (container) {
    container.append(frame)
    return () => frame.remove()
  }
  const previous = document.activeElement as HTMLElement | null
  const dialog = document.createElement('dialog')
  dialog.setAttribute('aria-label', frame.title)
  dialog.style.cssText =
    'padding:0;border:0;border-radius:8px;overflow:hidden;max-width:none;max-height:none;' +
    // dvh (where supported) leaves out the mobile browser bars that 100vh includes.
    'width:min(960px,100vw - 32px);height:min(640px,100vh - 32px);height:min(640px,100dvh - 32px)'
  dialog.append(frame)
  // A close we did not make (Escape, a close request): the user dismissed the selector. Keys
  // pressed inside the cross-origin page never reach this document: there, Escape is the page's.
  dialog.addEventListener('close', onClose)
  document.body.append(dialog)
  dialog.showModal()
  return () => {
    dialog.removeEventListener('close', onClose)
    dialog.close()
    dialog.remove()
    previous?.focus?.()
  }
}
