import { type FolderChoice, pickFolder, SelectorError, uploadWithSelector } from '@service-sdk/selector'
import { useCallback, useEffect, useRef, useState } from 'react'
import { baseOptions, type PickerOptions, type SelectorFiles, type SelectorUploadOptions } from './options.ts'
import { PickerSessions, type StartSession } from './sessions.ts'

/** Where the picker is: nothing shown yet, the page open, or how its last session ended. */
export type FolderPickerStatus = 'idle' | 'open' | 'picked' | 'cancelled' | 'failed'

/** Options of {@link useFolderPicker}: the selector's options (see `@service-sdk/selector`). */
export interface UseFolderPickerOptions extends PickerOptions {}

/** The picker before a session, while its page is open, or after a session that picked nothing. */
export interface FolderPickerPending {
  /** Where the picker is. */
  status: 'idle' | 'open' | 'cancelled'
  choice: undefined
  error: undefined
}

/** The picker after a session that picked a folder: `choice` is there. */
export interface FolderPickerPicked {
  status: 'picked'
  /** The folder the last session picked. */
  choice: FolderChoice
  error: undefined
}

/** The picker after a session that failed: `error` says why. */
export interface FolderPickerFailed {
  status: 'failed'
  choice: undefined
  /** The failure of the last session. */
  error: SelectorError
}

/** Where {@link useFolderPicker} is; `status` narrows `choice` and `error`. */
export type FolderPickerState = FolderPickerPending | FolderPickerPicked | FolderPickerFailed

/** What {@link useFolderPicker} returns: its state (narrowed by `status`) and its controls. */
export type FolderPickerHandle = FolderPickerState & FolderPickerActions

/** The controls of {@link useFolderPicker}. */
export interface FolderPickerActions {
  /**
   * Flow 2: shows the selector in a modal and resolves with the folder the user picks, or `null`
   * when they cancel, `close()` is called or the component unmounts. Rejects with the
   * `SelectorError` of a failure (also in `error`). While a page is open, returns its promise.
   */
  pick(): Promise<FolderChoice | null>
  /**
   * Flow 1: hands `files` to the selector page, which uploads them into the folder the user
   * picks; settles as `pick()` does.
   */
  upload(files: SelectorFiles, options?: SelectorUploadOptions): Promise<FolderChoice | null>
  /** Takes the open page down; its promise resolves `null` and `status` becomes `'cancelled'`. */
  close(): void
}

const IDLE: FolderPickerState = { status: 'idle', choice: undefined, error: undefined }

/** The selector rejects only with `SelectorError`s; anything else (a bug) is wrapped, so `error` has one type. */
const asSelectorError = (error: unknown): SelectorError =>
  SelectorError.isInstance(error) ? error : new SelectorError('error', String(error), error)

/**
 * The folder selector (`@service-sdk/selector`) for a component: `pick()` (flow 2) and
 * `upload(files)` (flow 1) open it in a modal dialog; the page is taken down when the component
 * unmounts. Safe under StrictMode and during server rendering (nothing is shown before a call).
 * Options are read when `pick()` / `upload()` is called.
 */
export function useFolderPicker(options: UseFolderPickerOptions): FolderPickerHandle {
  const [sessions] = useState(() => new PickerSessions())
  const [state, setState] = useState<FolderPickerState>(IDLE)
  const latest = useRef(options)
  latest.current = options

  useEffect(() => {
    sessions.mount()
    return () => sessions.unmount()
  }, [sessions])

  const run = useCallback(
    (start: StartSession) => {
      const wasOpen = sessions.open
      const promise = sessions.run(start)
      if (wasOpen || !sessions.open) return promise
      setState({ status: 'open', choice: undefined, error: undefined })
      promise.then(
        (choice) =>
          setState(
            choice
              ? { status: 'picked', choice, error: undefined }
              : { status: 'cancelled', choice: undefined, error: undefined },
          ),
        (error) => setState({ status: 'failed', choice: undefined, error: asSelectorError(error) }),
      )
      return promise
    },
    [sessions],
  )

  const pick = useCallback(() => run((signal) => pickFolder({ ...latest.current, signal })), [run])
  const upload = useCallback(
    (files: SelectorFiles, flow1: SelectorUploadOptions = {}) =>
      run((signal) => uploadWithSelector({ ...baseOptions(latest.current), ...flow1, files, signal })),
    [run],
  )
  const close = useCallback(() => sessions.close(), [sessions])

  return { ...state, pick, upload, close }
}
