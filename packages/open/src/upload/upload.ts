import { type Logger, UploadError } from '@service-sdk/core'
import { parseInput } from '@service-sdk/core/internal'
import type { OpenApi } from '../api.ts'
import { sameSource } from './checkpoint.ts'
import type { CredentialsCache } from './credentials-cache.ts'
import { createGate } from './gate.ts'
import { loadEngine } from './load-engine.ts'
import type { EngineDeps, ObjectJob, PreparedObject, UploadedObject, UploadState } from './object-upload.ts'
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
 * checked, credentials obtained, the object sent, material-save called. `retry()` runs the steps
 * again from where the failed attempt stopped.
 */
export function startUpload(deps: UploaderDeps, source: unknown, options: UploadOptions = {}): Upload {
  const parsed = parseInput(uploadOptionsSchema, options, 'upload options')
  const refused = refuseSource(deps.platform, source, 'source')
  if (refused.length > 0) throw validationError('upload source', refused)
  const { orgId, key, onProgress, signal, partSize, parallel, retry, timeoutMs, checkpoint, ...rest } = parsed
  const { keepPartsOnFailure, ...fields } = rest

  const cancel = new AbortController()
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
      { partSize, parallel, retry, timeoutMs, checkpoint, keepPartsOnFailure },
      deps.defaults,
      deps.platform,
    ),
    stop: new AbortController(),
    cancelled: cancel.signal,
    gate: createGate((paused) => progress.paused(paused)),
    progress,
    state,
  }
  const untie = follow(signal, cancel)
  let prepared: PreparedObject | undefined
  let uploaded: UploadedObject | undefined

  const attempt = async (): Promise<UploadedAsset> => {
    job.stop = new AbortController()
    const untieAttempt = follow(cancel.signal, job.stop)
    try {
      prepared = await reprepare(deps, job, prepared)
      job.stop.signal.throwIfAborted()
      await assertWritable(deps.api.orgs, orgId, { signal: job.stop.signal })
      uploaded ??= await (await loadEngine()).sendObject(deps, job, prepared)
      progress.phase('saving')
      const [saved] = await deps.api.materials.save(
        orgId === undefined ? { materials: [uploaded.material] } : { orgId, materials: [uploaded.material] },
        { signal: job.stop.signal },
      )
      if (!saved) throw new Error('material-save answered without the saved asset')
      await uploaded.finish()
      progress.phase('done')
      return { ...saved, size: uploaded.material.size, extension: uploaded.material.extension }
    } finally {
      untieAttempt()
    }
  }
  let settled: 'running' | 'done' | 'failed' = 'running'
  const begin = () => {
    settled = 'running'
    const run = attempt()
    run.then(
      () => {
        settled = 'done'
        untie()
      },
      () => {
        settled = 'failed'
      },
    )
    // Observed through done(); a caller that never asks must not crash the process.
    run.catch(() => {})
    return run
  }
  let result = begin()
  // An abort (abort(), or the caller's signal) also discards what a failed attempt kept.
  let discarding: Promise<void> = Promise.resolve()
  cancel.signal.addEventListener(
    'abort',
    () => {
      discarding = result.then(
        () => {},
        () => state.discard?.(),
      )
      untie()
    },
    { once: true },
  )

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
    pause: () => (job.gate as NonNullable<typeof job.gate>).pause(),
    resume: () => job.gate?.resume(),
    retry() {
      if (settled !== 'failed' || cancel.signal.aborted) return result
      if (prepared?.source.kind === 'sequential' && !uploaded) {
        result = Promise.reject(streamConsumed())
        result.catch(() => {})
        return result
      }
      result = begin()
      return result
    },
    async abort(reason) {
      if (!cancel.signal.aborted) cancel.abort(reason ?? abortError())
      await discarding
    },
  }
}

/**
 * The source for this attempt: opened on the first, opened again on a retry when it is a file
 * (a file that changed since cannot continue the parts already stored).
 */
async function reprepare(
  deps: UploaderDeps,
  job: ObjectJob,
  before: PreparedObject | undefined,
): Promise<PreparedObject> {
  if (before && !before.source.fingerprint) return before
  const prepared = await (await loadEngine()).prepareObject(deps, job)
  const was = before?.source.fingerprint
  const now = prepared.source.fingerprint
  if (was && now && !sameSource(was, now) && job.state.point) {
    deps.logger.warn('upload: the file changed since the failed attempt; starting over')
    await job.state.discard?.()
    job.state.point = undefined
  }
  return prepared
}

function streamConsumed(): UploadError {
  return new UploadError({
    code: 'source_consumed',
    message:
      'A stream is read once: the failed upload cannot be retried from it. Start a new upload with a new stream.',
  })
}
