import { mount } from './dialog.ts'
import { SelectorError } from './errors.ts'
import { createFrame } from './iframe.ts'
import { type FolderChoice, parsePageMessage, type SelectorEvent, type SelectorEvents } from './messages.ts'
import { resolveOptions, type SelectorOptions } from './options.ts'

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

type Finish = (error: SelectorError | null, choice?: FolderChoice | null) => void

/**
 * A selector bound to one page and one flow: flow 1 when `files` is given, else flow 2. Safe to
 * call without a DOM (SSR): nothing touches `window` until `open()`.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the 3 KB budget (test/bundle.test.ts): the session taken out of this closure into functions of its own measured 3,115 bytes brotli, 43 over it
export function createSelector(options: SelectorOptions): Selector {
  const config = resolveOptions(options)
  const { origin, signal } = config
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

  const aborted = () =>
    new SelectorError('aborted', 'The folder selector was aborted by its signal.', signal?.reason)

  const start = (resolve: (choice: FolderChoice | null) => void, reject: (error: SelectorError) => void) => {
    const frame = createFrame(config)
    let win: Window | null = null
    let sent = false
    let timer: ReturnType<typeof setTimeout> | undefined
    let unmount = () => {}

    const onMessage = (event: MessageEvent) => {
      // The exact origin and this instance's own frame: anything else may be another page's
      // selector, another tab of the app, or an attacker.
      if (!win || event.source !== win || event.origin !== origin) return
      const message = parsePageMessage(event.data, config.prefix)
      if (!message) return
      if (message.event === 'loaded') {
        clearTimeout(timer)
        // Sent now, not after a fixed delay: the listener was in place before the frame existed,
        // so no loaded message can be missed. Exactly once, whatever the page repeats.
        if (!sent) win.postMessage(config.message, origin)
        sent = true
      } else if (!sent && message.event === 'success') {
        // A choice before the page could have had our message answers nothing we asked (a stale
        // or replayed result). Cancel, unmount and error end the session whenever they come.
        return
      }
      if ('problem' in message) {
        // Flow 1's page answers only after uploading: the files may be stored though the answer is unusable.
        return done(
          new SelectorError(
            'invalid_message',
            `The folder selector page sent an unusable ${message.event} message: ${message.problem}.${config.upload ? ' The files may be uploaded already.' : ''}`,
          ),
        )
      }
      emit(message.event, message.detail)
      if (message.event === 'success') done(null, message.detail)
      if (message.event === 'error') {
        const text = message.detail.message
        done(
          new SelectorError(
            'error',
            `The folder selector page reported a failure${text ? `: ${text}` : '.'}`,
          ),
        )
      }
      if (message.event === 'cancel' || message.event === 'unMounted') done(null, null)
    }
    const onAbort = () => done(aborted())

    const done: Finish = (error, choice = null) => {
      removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      clearTimeout(timer)
      unmount()
      pending = finish = undefined
      error ? reject(error) : resolve(choice)
    }
    finish = done

    addEventListener('message', onMessage)
    signal?.addEventListener('abort', onAbort)
    // setTimeout fires at once beyond 2^31 ms: treat such values (Infinity) as "wait forever".
    if (config.timeoutMs < 2 ** 31) {
      timer = setTimeout(
        () =>
          done(
            new SelectorError(
              'timeout',
              `The folder selector page at ${origin} did not load within ${config.timeoutMs} ms; check appUrl, the network, and that CSP frame-src allows it.`,
            ),
          ),
        config.timeoutMs,
      )
    }
    try {
      unmount = mount(frame, config.container, () => done(null, null))
      win = frame.contentWindow
    } catch (error) {
      done(new SelectorError('unsupported', `The folder selector could not be shown: ${error}`, error))
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
      if (signal?.aborted) return Promise.reject(aborted())
      const promise = new Promise<FolderChoice | null>(start)
      // `start` may have settled synchronously (the frame could not be shown): then nothing is pending.
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
