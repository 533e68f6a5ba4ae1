import type { FolderChoice } from '@service-sdk/selector'

/** What the test reads and drives in the page. */
declare global {
  interface Window {
    framesCreated: number
    /** How many times the uploads panel's mount effect ran (2 under StrictMode's development build). */
    effectRuns: number
    setUploadsMounted(mounted: boolean): void
    /** `unhandled`: no onError, and a page that never loads (so the call fails with timeout). */
    showPicker(mode: 'modal' | 'inline' | 'none', flow?: 1 | 2, unhandled?: boolean): void
    pick(): Promise<FolderChoice | null>
    pickerUpload(): Promise<FolderChoice | null>
    closePicker(): void
    pauseUploads(id?: string): Promise<void>
  }
}
