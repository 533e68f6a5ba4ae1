import type { DemoInfo, Space } from './api/types.ts'
import type { Live } from './live.ts'

/** What every page gets. */
export interface PageContext {
  info: DemoInfo
  live: Live
  /** The caller's spaces, fetched once and shared (the upload page names the chosen space). */
  spaces(): Promise<Space[]>
  /** Go to another page. */
  navigate(path: string): void
}

export interface Page {
  path: string
  title: string
  /** Navigation label. */
  label: string
  icon: string
  description: string
  /** Render into `main`; returns what stops the page's listeners. */
  mount(main: HTMLElement, context: PageContext): () => void
}
