import { ServiceValidationError, type ValidationIssue } from '@service-sdk/core'
import type { UploadClient } from '../client.tsx'
import type { QueueSettings } from './queue.ts'
import type { UploadFileOptions, UploadItem } from './types.ts'

/** The options `useUpload` and `useUploads` share. */
export interface UploadHookOptions extends UploadFileOptions {
  /** The client to upload with. Default: the one of the nearest `<OpenClientProvider>`. */
  client?: UploadClient
  /**
   * Progress reaches React state at most once per this many milliseconds (status changes at
   * once): enough for a smooth bar without a render per network event. `0`: every event. @default 100
   */
  throttleMs?: number
  /** Called once each time an upload settles (`done`, `failed` or `aborted`). */
  onSettled?(item: UploadItem): void
}

/** The defaults of the hooks' own options (stated in their doc comments). */
export const HOOK_DEFAULTS = { throttleMs: 100, concurrency: 3 } as const

/** Checks the hook's own options (before any upload starts) and splits off the upload defaults. */
export function toSettings(
  { client: _client, throttleMs = HOOK_DEFAULTS.throttleMs, onSettled, ...defaults }: UploadHookOptions,
  client: UploadClient,
  concurrency: number,
): QueueSettings {
  const issues: ValidationIssue[] = []
  if (!(Number.isFinite(throttleMs) && throttleMs >= 0))
    issues.push({ path: 'throttleMs', message: 'must be a finite number of milliseconds, 0 or more' })
  if (!(Number.isInteger(concurrency) && concurrency >= 1))
    issues.push({ path: 'concurrency', message: 'must be an integer, 1 or more' })
  if (onSettled !== undefined && typeof onSettled !== 'function')
    issues.push({ path: 'onSettled', message: 'must be a function' })
  if (issues.length > 0) throw new ServiceValidationError('upload hook options', issues)
  return { client, defaults, concurrency, throttleMs, onSettled }
}
