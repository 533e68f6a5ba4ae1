/**
 * The sandbox tokens the page needs, and no more: scripts (it is an app), its own origin (its
 * session, storage and the `event.origin` we check; safe only because the page is cross-origin),
 * forms (its dialogs may submit one), and storage access on a click, for browsers that block
 * third-party cookies. Not granted: top navigation, popups, modals, downloads.
 */
export const SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-storage-access-by-user-activation'

export interface FrameOptions {
  src: string
  title: string
  sandbox: string
  allow: string
}

/** The iframe, not yet in the document: it starts loading when inserted. */
export function createFrame({ src, title, sandbox, allow }: FrameOptions): HTMLIFrameElement {
  const frame = document.createElement('iframe')
  frame.title = title
  frame.setAttribute('sandbox', sandbox)
  // Empty by default: no camera, geolocation, clipboard or other powerful feature is delegated.
  frame.allow = allow
  // The page may learn which site embeds it, never the path or query (they can hold tokens).
  frame.referrerPolicy = 'strict-origin'
  // CSSOM, not a style attribute: allowed under a strict `style-src`.
  frame.style.cssText = 'display:block;width:100%;height:100%;border:0'
  frame.src = src
  return frame
}
