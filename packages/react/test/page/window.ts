import type { FolderChoice } from '@service-sdk/selector'

/** What the test reads and drives in the page. */
declare global {
  interface Window {
    framesCreated: number
    /** How many times the uploads panel's mount effect ran (2 under StrictMode's development build). */
    effectRuns: number
    setUploadsMounted(mounted: boolean): void
    showPicker(mode: 'modal' | 'inline' | 'none', flow?: 1 | 2): void
    pick(): Promise<FolderChoice | null>
    pickerUpload(): Promise<FolderChoice | null>
    closePicker(): void
    pauseUploads(id?: string): Promise<void>
  }
}
