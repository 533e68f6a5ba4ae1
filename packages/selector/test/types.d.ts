import type * as Selector from '../src/index.ts'

interface Outcome {
  value?: Selector.FolderChoice | null
  error?: {
    name: string
    code: string
    message: string
    isRetryable: boolean
    json: unknown
    marker: unknown
    isInstance: boolean
    cause: string | undefined
  }
}

interface Received {
  origin: string
  type: unknown
  data: unknown
}

declare global {
  interface Window {
    Selector: typeof Selector
    ready: 'esm' | 'iife'
    host: {
      seen(): { origin: string; type: unknown; sentinel: unknown }[]
      start(name: string, fn: 'pickFolder' | 'uploadWithSelector', options: Record<string, unknown>): void
      create(name: string, options: Record<string, unknown>): Selector.Selector
      open(name: string): Promise<Selector.FolderChoice | null>
      selector(name: string): Selector.Selector
      events(name: string): unknown[]
      result(name: string): Promise<Outcome>
      abort(name: string): void
      frames(): number
      dialogs(): number
    }
    leaks: { listeners(): string[]; timers(): number; violations(): string[] }
    fake: {
      received: Received[]
      referrer: string
      search: string
      send(event: string, extra?: Record<string, unknown>): void
      post(raw: unknown): void
    }
  }
}
