import { type FolderChoice, pickFolder, type SelectorError, uploadWithSelector } from '@service-sdk/selector'
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react'
import { reportUncaught } from '../report.ts'
import { baseOptions, type PickerOptions, type SelectorFiles, type SelectorUploadOptions } from './options.ts'
import { PickerSessions, type StartSession } from './sessions.ts'

/** Props of {@link FolderPicker}. */
export interface FolderPickerProps extends PickerOptions, SelectorUploadOptions {
  /** Flow 1: the page uploads these into the folder the user picks. Without it: flow 2. */
  files?: SelectorFiles
  /**
   * Show the page inside a `<div>` this component renders (size it with `className` / `style`)
   * instead of in a modal dialog. @default false
   */
  inline?: boolean
  /** The inline `<div>`'s class. */
  className?: string
  /** The inline `<div>`'s style. */
  style?: CSSProperties
  /** The user picked a folder (flow 1: the page has uploaded the files into it). */
  onChoice(choice: FolderChoice): void
  /** The user cancelled (or the page went away without an answer). */
  onCancel?(): void
  /** The selector failed (`timeout`, the page's error, ...). Without it the error is reported as uncaught. */
  onError?(error: SelectorError): void
}

/** The session the props ask for: flow 1 with `files`, else flow 2; inline in `container` when given. */
function startFor(props: FolderPickerProps, container: HTMLElement | undefined): StartSession {
  const { files, isUrl, link, inline, onChoice, onCancel, onError, className, style, ...options } = props
  const shown = container ? { container } : {}
  if (files === undefined) return (signal) => pickFolder({ ...options, ...shown, signal })
  const upload = { ...(isUrl !== undefined && { isUrl }), ...(link !== undefined && { link }) }
  return (signal) => uploadWithSelector({ ...baseOptions(options), ...upload, ...shown, files, signal })
}

/**
 * The folder selector, shown while this component is mounted: in a modal dialog, or inline with
 * `inline`. The page opens once, on mount, with the props of that moment, and is taken down on
 * unmount; after it answers (`onChoice`, `onCancel`, `onError`), render the component again with
 * a new `key` to show it again. Under StrictMode the page is still opened once.
 */
export function FolderPicker(props: FolderPickerProps): ReactNode {
  const [sessions] = useState(() => new PickerSessions())
  const box = useRef<HTMLDivElement>(null)
  const latest = useRef(props)
  latest.current = props

  useEffect(() => {
    sessions.mount()
    // StrictMode runs this twice: the first page stays open (`unmount` waits a microtask to see
    // whether the effect runs again) and the second run finds it open, so one page is shown.
    if (!sessions.open) {
      const container = latest.current.inline ? (box.current ?? undefined) : undefined
      sessions.run(startFor(latest.current, container)).then(
        (choice) => {
          if (!sessions.mounted) return
          if (choice) latest.current.onChoice(choice)
          else latest.current.onCancel?.()
        },
        (error: SelectorError) => {
          if (!sessions.mounted) return
          if (latest.current.onError) latest.current.onError(error)
          else reportUncaught(error)
        },
      )
    }
    return () => sessions.unmount()
  }, [sessions])

  return props.inline ? <div ref={box} className={props.className} style={props.style} /> : null
}
