import { mount } from './dialog.ts'
import { SelectorError } from './errors.ts'
import { createFrame } from './iframe.ts'
import { type FolderChoice, parsePageMessage, type SelectorEvent } from './messages.ts'
import type { Resolved } from './options.ts'

/** Ends a showing: an error, or the user's choice (`null`: cancelled or closed). */
export type Finish = (error: SelectorError | null, choice?: FolderChoice | null) => void

export const aborted = (signal?: AbortSignal) =>
  new SelectorError('aborted', 'The folder selector was aborted by its signal.', signal?.reason)

/**
 * One showing of the page: the frame, its message listener, the load timer and the abort
 * listener. Every way out goes through the returned `Finish`, which takes all of them down
 * before calling `settle`. Returns nothing when the page could not be shown (settled already).
 */
export function showPage(
  config: Resolved,
  emit: (event: SelectorEvent, detail: unknown) => void,
  settle: Finish,
): Finish | undefined {
  const { origin, signal } = config
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
        new SelectorError('error', `The folder selector page reported a failure${text ? `: ${text}` : '.'}`),
      )
    }
    if (message.event === 'cancel' || message.event === 'unMounted') done(null, null)
  }
  const onAbort = () => done(aborted(signal))

  const done: Finish = (error, choice = null) => {
    removeEventListener('message', onMessage)
    signal?.removeEventListener('abort', onAbort)
    clearTimeout(timer)
    unmount()
    settle(error, choice)
  }

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
    // Not shown: settled already, so nothing is left to finish.
    return void done(
      new SelectorError('unsupported', `The folder selector could not be shown: ${error}`, error),
    )
  }
  return done
}
