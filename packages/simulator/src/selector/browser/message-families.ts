/**
 * The window messages the page posts, in the two naming families the service uses (see
 * docs/service-behaviour.md, "The selector page"). Each is posted as `service-<type>`.
 */
export const MESSAGE_TYPES = {
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
} as const satisfies Record<string, Partial<Record<PageEvent, string>>>

export type MessageFamily = keyof typeof MESSAGE_TYPES
export type PageEvent = 'init' | 'loaded' | 'unMounted' | 'cancel' | 'success' | 'error'

/** Every message type is posted with this prefix: `service-<type>`. */
export const MESSAGE_PREFIX = 'service'

/** The families named in `data-families` (space-separated), unknown names left out. */
export function parseFamilies(text: string): MessageFamily[] {
  return text.split(' ').filter((f): f is MessageFamily => f in MESSAGE_TYPES)
}
