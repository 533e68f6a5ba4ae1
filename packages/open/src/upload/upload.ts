import { type Logger, parseInput } from '@service-sdk/core'
import type { OpenApi } from '../api.ts'
import type { CredentialsCache } from './credentials-cache.ts'
import {
  type EngineDeps,
  type ObjectJob,
  prepareObject,
  sendObject,
  type UploadState,
} from './object-upload.ts'
import {
  type ResolvedDefaults,
  refuseSource,
  transferSettings,
  uploadOptionsSchema,
  validationError,
} from './options.ts'
import type { UploadPlatform } from './platform.ts'
import { createListeners, createProgressTracker, type UploadProgress } from './progress.ts'
import type { Upload, UploadedAsset, UploadOptions } from './types.ts'
import { assertWritable } from './write-check.ts'

export interface UploaderDeps extends EngineDeps {
  api: OpenApi
  platform: UploadPlatform
  credentials: CredentialsCache
  logger: Logger
  defaults: ResolvedDefaults
  maxMaterialsPerSave: number
}

export function abortError(): DOMException {
  return new DOMException('The upload was aborted', 'AbortError')
}

/** Ties a caller's signal to our controller; the returned function unties it (call it when done). */
export function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (!signal) return () => {}
  if (signal.aborted) {
    controller.abort(signal.reason)
    return () => {}
  }
  const onAbort = () => controller.abort(signal.reason)
  signal.addEventListener('abort', onAbort, { once: true })
  return () => signal.removeEventListener('abort', onAbort)
}

/**
 * `open.upload()`: interface §4 as one call. The options are checked at once (a
 * `ServiceValidationError` is thrown here); then, in order: the source is opened, the write rule
 * checked, credentials obtained, the object sent, material-save called.
 */
export function startUpload(deps: UploaderDeps, source: unknown, options: UploadOptions = {}): Upload {
  const parsed = parseInput(uploadOptionsSchema, options, 'upload options')
  const refused = refuseSource(deps.platform, source, 'source')
  if (refused.length > 0) throw validationError('upload source', refused)
  const { orgId, key, onProgress, signal, partSize, parallel, retry, timeoutMs, checkpoint, ...fields } =
    parsed

  const stop = new AbortController()
  const listeners = createListeners(
    onProgress as ((progress: UploadProgress) => void) | undefined,
    deps.logger,
  )
  const progress = createProgressTracker(listeners.emit, deps.logger)
  const state: UploadState = { completed: false }
  const job: ObjectJob = {
    source,
    fields,
    key,
    transfer: transferSettings(
      { partSize, parallel, retry, timeoutMs, checkpoint },
      deps.defaults,
      deps.platform,
    ),
    stop,
    progress,
    state,
  }
  const untie = follow(signal, stop)

  const run = async (): Promise<UploadedAsset> => {
    const prepared = await prepareObject(deps, job)
    stop.signal.throwIfAborted()
    await assertWritable(deps.api.orgs, orgId, { signal: stop.signal })
    const uploaded = await sendObject(deps, job, prepared)
    progress.phase('saving')
    const [saved] = await deps.api.materials.save(
      orgId === undefined ? { materials: [uploaded.material] } : { orgId, materials: [uploaded.material] },
      { signal: stop.signal },
    )
    if (!saved) throw new Error('material-save answered without the saved asset')
    await uploaded.finish()
    progress.phase('done')
    return { ...saved, size: uploaded.material.size, extension: uploaded.material.extension }
  }
  const result = run()
  // Observed through done(); a caller that never asks must not crash the process.
  result.catch(() => {}).finally(untie)

  return {
    get key() {
      return state.key
    },
    get uploadId() {
      return state.uploadId
    },
    get progress() {
      return progress.current
    },
    onProgress: listeners.add,
    done: () => result,
    async abort(reason) {
      if (!stop.signal.aborted) stop.abort(reason ?? abortError())
      await result.then(
        () => {},
        () => {},
      )
    },
  }
}
