import { type Id, type SavedMaterial, UploadError } from '@service-sdk/core'
import type { Instrumentation } from '@service-sdk/core/internal'
import { type OpenApi, saveUploaded } from '../../api.ts'
import { sameSource } from '../checkpoints/source-fingerprint.ts'
import type { EngineDeps, ObjectJob, UploadedObject } from '../engine/object-job.ts'
import type { PreparedObject } from '../engine/prepare-object.ts'
import { parseWith } from '../options/option-rules.ts'
import {
  type ResolvedDefaults,
  refuseSource,
  transferSettings,
  uploadOptionsRule,
  validationError,
} from '../options/options.ts'
import type { Upload, UploadedAsset, UploadOptions } from '../types.ts'
import { createGate, type Gate } from './gate.ts'
import { loadEngine } from './load-engine.ts'
import { missingAsset } from './missing-asset.ts'
import { createListeners, createProgressTracker, type Listeners, type UploadProgress } from './progress.ts'
import { saveMayHaveHappened, saveOutcomeUnknown } from './save-outcome.ts'
import { abortError, follow } from './signals.ts'
import { traceUpload, type UploadTrace } from './upload-trace.ts'
import { assertWritable } from './write-check.ts'

export interface UploaderDeps extends EngineDeps {
  api: OpenApi
  defaults: ResolvedDefaults
  maxMaterialsPerSave: number
  instrumentation?: Instrumentation | undefined
}

/**
 * `open.upload()`: the upload of docs/service/uploads.md as one call. The options are checked at
 * once (a `ServiceValidationError` is thrown here); then, in order: the source is opened, the
 * write rule checked, credentials obtained, the object sent, material-save called. `retry()`
 * runs the steps again from where the failed attempt stopped.
 */
export function startUpload(deps: UploaderDeps, source: unknown, options: UploadOptions = {}): Upload {
  const parsed = parseWith(uploadOptionsRule, options, 'upload options')
  const refused = refuseSource(deps.platform, source, 'source')
  if (refused.length > 0) throw validationError('upload source', refused)
  const {
    orgId,
    key,
    onProgress,
    signal,
    partSize,
    parallel,
    retry,
    timeoutMs,
    checkpoint,
    saveAgain,
    ...rest
  } = parsed
  const { keepPartsOnFailure, ...fields } = rest
  const listeners = createListeners(
    onProgress as ((progress: UploadProgress) => void) | undefined,
    deps.logger,
  )
  const cancel = new AbortController()
  const trace = traceUpload(deps.instrumentation, createProgressTracker(listeners.emit))
  const progress = trace.progress
  const settings = { partSize, parallel, retry, timeoutMs, checkpoint, keepPartsOnFailure }
  const job: ObjectJob = {
    source,
    fields,
    key,
    transfer: transferSettings(settings, deps.defaults, deps.platform),
    stop: new AbortController(),
    cancelled: cancel.signal,
    gate: createGate((paused) => progress.paused(paused)),
    progress,
    state: { completed: false },
  }
  return new UploadRun({ deps, job, orgId, cancel, signal, listeners, trace, saveAgain: saveAgain ?? false })
}

/**
 * A running upload: the handle `open.upload()` returns. Each attempt (the first, each `retry()`)
 * runs `#attempt` under a controller of its own; what outlives an attempt is in `job.state`, the
 * opened source and, once the object is stored, `#uploaded` (a retry then only saves).
 */
class UploadRun implements Upload {
  readonly #deps: UploaderDeps
  readonly #job: ObjectJob
  readonly #gate: Gate
  readonly #orgId: Id | undefined
  readonly #cancel: AbortController
  readonly #listeners: Listeners<UploadProgress>
  readonly #trace: UploadTrace
  readonly #untie: () => void
  #prepared: PreparedObject | undefined
  #uploaded: UploadedObject | undefined
  /** material-save was sent without a clear answer (here, or by the run a checkpoint remembers). */
  #saveUnknown = false
  /** The caller's word that saving again is fine. */
  #saveAgain: boolean
  #settled: 'running' | 'done' | 'failed' = 'running'
  #result: Promise<UploadedAsset>
  /** An abort (`abort()`, or the caller's signal) also discards what a failed attempt kept. */
  #discarding: Promise<void> = Promise.resolve()

  constructor(init: {
    deps: UploaderDeps
    job: ObjectJob
    orgId: Id | undefined
    cancel: AbortController
    signal: AbortSignal | undefined
    listeners: Listeners<UploadProgress>
    trace: UploadTrace
    saveAgain: boolean
  }) {
    this.#deps = init.deps
    this.#saveAgain = init.saveAgain
    this.#job = init.job
    this.#gate = init.job.gate as Gate
    this.#orgId = init.orgId
    this.#cancel = init.cancel
    this.#listeners = init.listeners
    this.#trace = init.trace
    this.#untie = follow(init.signal, init.cancel)
    this.#result = this.#begin()
    init.cancel.signal.addEventListener('abort', () => this.#onCancel(), { once: true })
  }

  get key(): string | undefined {
    return this.#job.state.key
  }
  get uploadId(): string | undefined {
    return this.#job.state.uploadId
  }
  get progress(): UploadProgress {
    return this.#job.progress.current
  }
  // Arrow properties: the handle's methods work detached (`const { done } = upload`).
  readonly onProgress = (listener: (progress: UploadProgress) => void): (() => void) =>
    this.#listeners.add(listener)
  readonly done = (): Promise<UploadedAsset> => this.#result
  readonly pause = (): Promise<void> => this.#gate.pause()
  readonly resume = (): void => this.#gate.resume()

  readonly retry = (options?: { saveAgain?: boolean }): Promise<UploadedAsset> => {
    if (this.#settled !== 'failed' || this.#cancel.signal.aborted) return this.#result
    if (options?.saveAgain === true) this.#saveAgain = true
    if (this.#prepared?.source.kind === 'sequential' && !this.#uploaded) {
      this.#result = Promise.reject(streamConsumed())
      this.#result.catch(() => {})
      return this.#result
    }
    this.#result = this.#begin()
    return this.#result
  }

  readonly abort = async (reason?: unknown): Promise<void> => {
    if (!this.#cancel.signal.aborted) this.#cancel.abort(reason ?? abortError())
    await this.#discarding
  }

  #begin(): Promise<UploadedAsset> {
    this.#settled = 'running'
    const run = this.#trace.run(() => this.#attempt())
    run.then(
      () => {
        this.#settled = 'done'
        this.#untie()
      },
      () => {
        this.#settled = 'failed'
      },
    )
    // Observed through done(); a caller that never asks must not crash the process.
    run.catch(() => {})
    return run
  }

  #onCancel(): void {
    const state = this.#job.state
    this.#discarding = this.#result.then(
      () => {},
      () => state.discard?.(),
    )
    this.#untie()
  }

  async #attempt(): Promise<UploadedAsset> {
    const job = this.#job
    job.stop = new AbortController()
    const untieAttempt = follow(this.#cancel.signal, job.stop)
    const options = { signal: job.stop.signal }
    try {
      this.#prepared = await reprepare(this.#deps, job, this.#prepared)
      job.stop.signal.throwIfAborted()
      await assertWritable(this.#deps.api.orgs, this.#orgId, options)
      this.#uploaded ??= await (await loadEngine()).sendObject(this.#deps, job, this.#prepared)
      const saved = await this.#save(this.#uploaded, options.signal)
      await this.#uploaded.finish()
      job.progress.phase('done')
      return saved
    } finally {
      untieAttempt()
    }
  }

  /**
   * material-save for the object, never sent twice by itself: recorded as sent (in the
   * checkpoint) before it goes; once it went without a clear answer (here, or in the run a
   * checkpoint remembers), the upload fails with `save_outcome_unknown` until the caller says to
   * save again.
   */
  async #save(uploaded: UploadedObject, signal: AbortSignal): Promise<UploadedAsset> {
    const { material } = uploaded
    if ((this.#saveUnknown || uploaded.saveSentAt !== undefined) && !this.#saveAgain) {
      throw saveOutcomeUnknown(material.key)
    }
    this.#job.progress.phase('saving')
    await uploaded.saving()
    const orgId = this.#orgId
    const input = orgId === undefined ? { materials: [material] } : { orgId, materials: [material] }
    let saved: SavedMaterial | undefined
    try {
      ;[saved] = await saveUploaded(this.#deps.api, input, { signal })
    } catch (error) {
      if (!saveMayHaveHappened(error, signal.aborted)) {
        await uploaded.saveRefused()
        throw error
      }
      this.#saveUnknown = true
      this.#saveAgain = false
      throw signal.aborted ? error : saveOutcomeUnknown(material.key, error)
    }
    if (!saved) {
      this.#saveUnknown = true
      throw saveOutcomeUnknown(material.key, missingAsset(material.key))
    }
    return { ...saved, size: material.size, extension: material.extension }
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
