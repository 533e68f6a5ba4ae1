import type { FolderChoice } from './messages.ts'
import type { PickFolderOptions, UploadWithSelectorOptions } from './options.ts'
import { createSelector } from './selector.ts'

async function once(options: PickFolderOptions | UploadWithSelectorOptions): Promise<FolderChoice | null> {
  const selector = createSelector(options)
  try {
    return await selector.open()
  } finally {
    selector.destroy()
  }
}

/**
 * Flow 2: shows the selector for folder choice only and resolves with the chosen folder, or `null`
 * when the user cancels. Rejects with a `SelectorError` (`timeout`, `aborted`, ...).
 */
export const pickFolder = (options: PickFolderOptions): Promise<FolderChoice | null> => once(options)

/**
 * Flow 1: hands `files` to the selector page, which uploads them into the folder the user picks.
 * Resolves with that folder once the page reports success, `null` on cancel; rejects with code
 * `error` when the page reports a failed upload.
 */
export const uploadWithSelector = (options: UploadWithSelectorOptions): Promise<FolderChoice | null> =>
  once(options)
