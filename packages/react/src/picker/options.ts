import type { BaseSelectorOptions, Theme, UploadWithSelectorOptions } from '@service-sdk/selector'

/**
 * The selector options of {@link useFolderPicker} and `<FolderPicker>`: those of
 * `@service-sdk/selector` but `signal` (the component's lifetime is the signal) and `container`.
 */
export interface PickerOptions extends Omit<BaseSelectorOptions, 'signal' | 'container'> {
  /** Flow 2: sent to the page in its init message. @default 'light' */
  theme?: Theme
}

/** Flow 1's files: `File`s, a `FileList`, or `http(s)` addresses. */
export type SelectorFiles = UploadWithSelectorOptions['files']

/** Flow 1's options besides the files. */
export interface SelectorUploadOptions {
  /** Whether `files` are addresses. @default true when `files` are strings */
  isUrl?: boolean
  /** The related address of the files. @default '' */
  link?: string
}

/** The selector options without the flow-2-only `theme`. */
export function baseOptions({ theme: _theme, ...base }: PickerOptions): Omit<PickerOptions, 'theme'> {
  return base
}
