import type { PageState } from './page-state.ts'

/**
 * The window messages the page posts, in the two naming families the service uses (see
 * docs/service-behaviour.md, "The selector page"). Each is posted as `service-<type>`.
 */
const TYPES = {
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

export type MessageFamily = keyof typeof TYPES
export type PageEvent = 'init' | 'loaded' | 'unMounted' | 'cancel' | 'success' | 'error'

const PREFIX = 'service'

/** The families named in `data-families` (space-separated), unknown names left out. */
export function parseFamilies(text: string): MessageFamily[] {
  return text.split(' ').filter((f): f is MessageFamily => f in TYPES)
}

/** Posts `event` to the host in each configured family that has it. */
export function post(state: PageState, event: PageEvent, extra: Record<string, unknown> = {}): void {
  if (!state.host) return
  for (const family of state.families) {
    const type: string | undefined = (TYPES[family] as Partial<Record<PageEvent, string>>)[event]
    // Target '*', as the real page posts: the embedder checks event.origin and event.source.
    if (type) state.host.postMessage({ type: `${PREFIX}-${type}`, ...extra }, '*')
  }
}

export interface HostMessages {
  /** `service-choiceModal-init`: the host's theme. */
  init(theme: unknown): void
  /** `open` (flow 1): the files to upload. */
  open(data: unknown): void
}

/**
 * A message event, if it is one the page listens to: only from the window that embeds it, and
 * once that window has spoken, only from the same origin.
 */
export function onHostMessage(state: PageState, event: MessageEvent, handle: HostMessages): void {
  if (!state.host || event.source !== state.host) return
  if (state.hostOrigin !== null && event.origin !== state.hostOrigin) return
  const data = event.data as { type?: unknown; data?: unknown } | null
  if (typeof data !== 'object' || data === null) return
  if (data.type === `${PREFIX}-choiceModal-init`) {
    state.hostOrigin = event.origin
    handle.init((data.data as { theme?: unknown } | undefined)?.theme)
  } else if (data.type === 'open' && state.flow === 'upload') {
    state.hostOrigin = event.origin
    handle.open(data.data)
  }
}
