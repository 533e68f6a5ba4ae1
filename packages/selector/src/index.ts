export {
  SelectorError,
  type SelectorErrorCode,
  type SelectorErrorJSON,
  type SelectorIssue,
} from './errors.ts'
export { pickFolder, uploadWithSelector } from './flows.ts'
export { SANDBOX } from './iframe.ts'
export type { FolderChoice, PageFailure, SelectorEvent, SelectorEvents, Theme } from './messages.ts'
export type {
  BaseSelectorOptions,
  PickFolderOptions,
  SelectorOptions,
  UploadWithSelectorOptions,
} from './options.ts'
export { orgIdForSave } from './org.ts'
export { createSelector, type Selector, type SelectorHandler } from './selector.ts'
