export {
  OpenClientProvider,
  type OpenClientProviderProps,
  type UploadClient,
  useOpenClient,
} from './client.tsx'
export { FolderPicker, type FolderPickerProps } from './picker/folder-picker.tsx'
export type { PickerOptions, SelectorFiles, SelectorUploadOptions } from './picker/options.ts'
export {
  type FolderPickerActions,
  type FolderPickerFailed,
  type FolderPickerHandle,
  type FolderPickerPending,
  type FolderPickerPicked,
  type FolderPickerState,
  type FolderPickerStatus,
  type UseFolderPickerOptions,
  useFolderPicker,
} from './picker/use-folder-picker.ts'
export type { UploadHookOptions } from './uploads/settings.ts'
export type {
  UploadFileOptions,
  UploadItem,
  UploadItemAborted,
  UploadItemDone,
  UploadItemFailed,
  UploadItemFields,
  UploadItemRunning,
  UploadSources,
  UploadStatus,
  UploadSummary,
} from './uploads/types.ts'
export {
  type SingleUpload,
  type SingleUploadActions,
  type SingleUploadIdle,
  type SingleUploadState,
  type UseUploadOptions,
  useUpload,
} from './uploads/use-upload.ts'
export { type Uploads, type UseUploadsOptions, useUploads } from './uploads/use-uploads.ts'
