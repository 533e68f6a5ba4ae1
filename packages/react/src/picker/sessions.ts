import { type FolderChoice, SelectorError } from '@service-sdk/selector'

/** Starts one selector session (`pickFolder` / `uploadWithSelector`) bound to `signal`. */
export type StartSession = (signal: AbortSignal) => Promise<FolderChoice | null>

interface Session {
  controller: AbortController
  promise: Promise<FolderChoice | null>
}

/**
 * The selector sessions of one component: at most one open at a time, taken down when the
 * component unmounts.
 *
 * React's StrictMode (and `<Activity>`) runs an effect's cleanup and then the effect again, in the
 * same task. So the cleanup does not take the page down at once: it does so a microtask later,
 * unless the effect ran again in between. A StrictMode remount therefore neither closes an open
 * page nor opens a second one.
 */
export class PickerSessions {
  #current: Session | undefined
  #mounted = true

  /** Whether the component is mounted (or has not run its effects yet). */
  get mounted(): boolean {
    return this.#mounted
  }

  /** Whether a page is open. */
  get open(): boolean {
    return this.#current !== undefined
  }

  /** The component's effect ran. */
  mount(): void {
    this.#mounted = true
  }

  /** The component's effect was cleaned up: close the page unless it runs again in this task. */
  unmount(): void {
    this.#mounted = false
    queueMicrotask(() => {
      if (!this.#mounted) this.close()
    })
  }

  /**
   * Runs `start` unless a session is open (then returns that session's promise). Resolves with
   * the choice, or `null` on cancel and when `close()` or the unmount took the page down; rejects
   * with the selector's `SelectorError` otherwise.
   */
  run(start: StartSession): Promise<FolderChoice | null> {
    if (this.#current) return this.#current.promise
    if (!this.#mounted) return Promise.resolve(null)
    const controller = new AbortController()
    const started = new Promise<FolderChoice | null>((resolve) => resolve(start(controller.signal)))
    const promise = settle(started, controller.signal).finally(() => {
      if (this.#current?.controller === controller) this.#current = undefined
    })
    this.#current = { controller, promise }
    return promise
  }

  /** Takes the open page down; its promise resolves `null`. */
  close(): void {
    const current = this.#current
    this.#current = undefined
    current?.controller.abort()
  }
}

/** Our own abort (close, unmount) is not a failure: it resolves `null`, like a cancel. */
async function settle(session: Promise<FolderChoice | null>, signal: AbortSignal) {
  try {
    return await session
  } catch (error) {
    if (signal.aborted && SelectorError.isInstance(error) && error.code === 'aborted') return null
    throw error
  }
}
