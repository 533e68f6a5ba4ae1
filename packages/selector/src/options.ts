import { invalid } from './errors.ts'
import { SANDBOX } from './iframe.ts'
import { initMessage, openMessage, type Theme } from './messages.ts'

export interface BaseSelectorOptions {
  /**
   * The selector app's base URL (`{app_url}`); the page is `<appUrl>/outer/outerChoice`. Its
   * query parameters are kept. Its origin is the only origin messages are accepted from and sent to.
   */
  appUrl: string | URL
  /** Show the page inline in this element (sized 100% of it) instead of in a modal dialog. */
  container?: HTMLElement
  /**
   * Aborting closes the selector and rejects with a `SelectorError` of code `aborted` whose
   * `cause` is the signal's `reason` (not with the reason itself).
   */
  signal?: AbortSignal
  /**
   * How long to wait for the page's loaded message before rejecting with code `timeout`; not a
   * limit on the user once the page is up. `Infinity` waits forever. @default 30000
   */
  timeoutMs?: number
  /** The brand word in the message types (`<prefix>-choiceModal-loaded`). @default 'service' */
  prefix?: string
  /** The iframe's accessible title. @default 'Folder selector' */
  title?: string
  /** The iframe's `sandbox` tokens; widen only for a page that needs it (e.g. `allow-popups` for SSO). */
  sandbox?: string
  /** The iframe's permissions policy (`allow`). @default '' (nothing delegated) */
  allow?: string
}

/** Flow 2: choose a folder only. */
export interface PickFolderOptions extends BaseSelectorOptions {
  /** Sent to the page in its init message. @default 'light' */
  theme?: Theme
}

/** Flow 1: the page uploads the files into the folder the user picks. */
export interface UploadWithSelectorOptions extends BaseSelectorOptions {
  /** File objects, or URLs of files when `isUrl` is true. */
  files: readonly File[] | FileList | readonly string[]
  /** Whether `files` are URLs. @default true when `files` are strings */
  isUrl?: boolean
  /** The related address of the files. @default '' */
  link?: string
}

export type SelectorOptions = PickFolderOptions | UploadWithSelectorOptions

export interface Resolved {
  origin: string
  src: string
  /** Flow 1: the page uploads `files` itself. */
  upload: boolean
  /** What to post after the page's loaded message. */
  message: unknown
  prefix: string
  timeoutMs: number
  container: HTMLElement | undefined
  signal: AbortSignal | undefined
  title: string
  sandbox: string
  allow: string
}

const PAGE = '/outer/outerChoice'

/** Checks every option up front, so bad input fails before anything is shown. */
export function resolveOptions(options: SelectorOptions): Resolved {
  const { prefix = 'service', timeoutMs = 30_000 } = options
  let url: URL | undefined
  try {
    url = new URL(options.appUrl)
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol))
    return invalid('appUrl', `must be an absolute http(s) URL, got ${options.appUrl}`)
  if (!url.pathname.endsWith(PAGE)) url.pathname = url.pathname.replace(/\/?$/, PAGE)
  url.hash = ''
  url.searchParams.set('type', 'content')
  if (!(timeoutMs > 0)) invalid('timeoutMs', 'must be a positive number')
  if (!prefix || typeof prefix !== 'string') invalid('prefix', 'must be a non-empty string')

  let message: unknown
  if ('files' in options) {
    const files: (File | string)[] = Array.from<File | string>(options.files ?? [])
    const urls = files.every((f) => typeof f === 'string')
    const { isUrl = urls, link = '' } = options
    if (!files.length) invalid('files', 'must not be empty')
    if (isUrl !== urls) invalid('files', 'must be all URLs (isUrl true) or all Files')
    for (const f of files) {
      const ok = urls
        ? /^https?:\/\//i.test(f as string)
        : Object.prototype.toString.call(f) === '[object File]'
      if (!ok) invalid('files', `has a non-${urls ? 'URL' : 'File'}: ${f}`)
    }
    if (typeof link !== 'string') invalid('link', 'must be a string')
    message = openMessage(files, isUrl, link)
  } else {
    const { theme = 'light' } = options
    if (theme !== 'light' && theme !== 'dark') invalid('theme', `must be 'light' or 'dark', got ${theme}`)
    url.searchParams.set('file', 'empty')
    message = initMessage(prefix, theme)
  }
  return {
    origin: url.origin,
    src: url.href,
    upload: 'files' in options,
    message,
    prefix,
    timeoutMs,
    container: options.container,
    signal: options.signal,
    title: options.title ?? 'Folder selector',
    sandbox: options.sandbox ?? SANDBOX,
    allow: options.allow ?? '',
  }
}
