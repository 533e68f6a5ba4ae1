import { SelectorError } from './errors.ts'
import type { FolderChoice, SelectorEvent, SelectorEvents } from './messages.ts'
import { resolveOptions, type SelectorOptions } from './options.ts'
import { aborted, type Finish, showPage } from './session.ts'

export type SelectorHandler<E extends SelectorEvent> = (detail: SelectorEvents[E]) => void

export interface Selector {
  /**
   * Shows the page and settles with the user's choice, `null` on cancel (or unmount, Escape,
   * `close()`), or a `SelectorError`. While one is pending, returns that same promise.
   */
  open(): Promise<FolderChoice | null>
  /** Takes the page down; a pending `open()` resolves `null`. The selector can be opened again. */
  close(): void
  /** Takes the page down for good and drops every handler; a pending `open()` rejects with `destroyed`. */
  destroy(): void
  /** Calls `handler` for each accepted page message of that event; returns the unsubscriber. */
  on<E extends SelectorEvent>(event: E, handler: SelectorHandler<E>): () => void
}

/**
 * A selector bound to one page and one flow: flow 1 when `files` is given, else flow 2. Safe to
 * call without a DOM (SSR): nothing touches `window` until `open()`.
 */
export function createSelector(options: SelectorOptions): Selector {
  const config = resolveOptions(options)
  const handlers = new Map<SelectorEvent, Set<SelectorHandler<never>>>()
  let pending: Promise<FolderChoice | null> | undefined
  let finish: Finish | undefined
  let destroyed = false

  const emit = (event: SelectorEvent, detail: unknown) => {
    for (const handler of handlers.get(event) ?? []) {
      try {
        ;(handler as (detail: unknown) => void)(detail)
      } catch (error) {
        // A throwing handler is the caller's bug: report it, keep the session consistent.
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  return {
    open() {
      if (pending) return pending
      if (destroyed)
        return Promise.reject(
          new SelectorError('destroyed', 'This selector was destroyed; create a new one.'),
        )
      if (typeof document === 'undefined') {
        return Promise.reject(
          new SelectorError('unsupported', 'The folder selector needs a browser (no document here).'),
        )
      }
      if (config.signal?.aborted) return Promise.reject(aborted(config.signal))
      const promise = new Promise<FolderChoice | null>((resolve, reject) => {
        finish = showPage(config, emit, (error, choice = null) => {
          pending = finish = undefined
          error ? reject(error) : resolve(choice)
        })
      })
      // The page may have failed to show at once: then nothing is pending.
      if (finish) pending = promise
      return promise
    },
    close() {
      finish?.(null, null)
    },
    destroy() {
      destroyed = true
      handlers.clear()
      finish?.(new SelectorError('destroyed', 'The selector was destroyed while open.'))
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set()
      handlers.set(event, set.add(handler as SelectorHandler<never>))
      return () => void set.delete(handler as SelectorHandler<never>)
    },
  }
}
