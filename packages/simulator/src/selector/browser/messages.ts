import { MESSAGE_PREFIX, MESSAGE_TYPES, type PageEvent } from './message-families.ts'
import type { PageState } from './page-state.ts'

/** Posts `event` to the host in each configured family that has it. */
export function post(state: PageState, event: PageEvent, extra: Record<string, unknown> = {}): void {
  if (!state.host) return
  for (const family of state.families) {
    const type: string | undefined = (MESSAGE_TYPES[family] as Partial<Record<PageEvent, string>>)[event]
    // Target '*', as the real page posts: the embedder checks event.origin and event.source.
    if (type) state.host.postMessage({ type: `${MESSAGE_PREFIX}-${type}`, ...extra }, '*')
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
  if (data.type === `${MESSAGE_PREFIX}-choiceModal-init`) {
    state.hostOrigin = event.origin
    handle.init((data.data as { theme?: unknown } | undefined)?.theme)
  } else if (data.type === 'open' && state.flow === 'upload') {
    state.hostOrigin = event.origin
    handle.open(data.data)
  }
}
