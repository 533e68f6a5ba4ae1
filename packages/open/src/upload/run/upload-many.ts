import type { Id } from '@service-sdk/core'
import type { ObjectJob, UploadedObject } from '../engine/object-job.ts'
import { parseWith } from '../options/option-rules.ts'
import { type TransferSettings, transferSettings, uploadManyOptionsRule } from '../options/options.ts'
import type {
  UploadBatch,
  UploadManyItem,
  UploadManyOptions,
  UploadManyProgress,
  UploadManyResult,
  UploadSource,
} from '../types.ts'
import { type BatchItem, batchItems } from './batch-items.ts'
import { BatchProgress } from './batch-progress.ts'
import { loadEngine } from './load-engine.ts'
import { createProgressTracker } from './progress.ts'
import { SaveBatcher } from './save-batcher.ts'
import { saveOutcomeUnknown } from './save-outcome.ts'
import { abortError, follow } from './signals.ts'
import type { UploaderDeps } from './upload.ts'
import { asUploadFailure } from './upload-failure.ts'
import { traceUpload } from './upload-trace.ts'
import { assertWritable } from './write-check.ts'

type Engine = Awaited<ReturnType<typeof loadEngine>>

/**
 * `open.uploadMany()`: `concurrency` files at a time on the shared credentials (one sts-tmp call
 * while they are fresh, one connection per credential), one progress view, and material-save
 * in batches of the client's `maxMaterialsPerSave`. Options and items are checked here, once for
 * the batch; the transfer settings (defaults, checkpoint store) are resolved once too.
 */
export function startUploadMany(
  deps: UploaderDeps,
  sources: Iterable<UploadSource | UploadManyItem>,
  options: UploadManyOptions = {},
): UploadBatch {
  const parsed = parseWith(uploadManyOptionsRule, options, 'uploadMany options')
  const { orgId, concurrency, onProgress, signal, partSize, parallel, retry, timeoutMs, saveAgain, ...rest } =
    parsed
  const { checkpoint, keepPartsOnFailure, ...shared } = rest
  const items = batchItems(deps.platform, sources, shared)
  const settings = { partSize, parallel, retry, timeoutMs, checkpoint, keepPartsOnFailure }
  // Without a checkpoint nothing could continue a failed file's parts: they are not kept.
  const transfer = transferSettings(settings, deps.defaults, deps.platform, checkpoint !== undefined)
  const progress = new BatchProgress(
    items.length,
    onProgress as ((progress: UploadManyProgress) => void) | undefined,
    deps.logger,
  )
  const workers = Math.min(concurrency ?? deps.defaults.concurrency, items.length)
  return new BatchRun({
    deps,
    items,
    transfer,
    orgId,
    signal,
    progress,
    workers,
    saveAgain: saveAgain ?? false,
  })
}

/**
 * A running batch. Workers take the next file, send it, and move on as soon as it is in the
 * storage; its material joins the next material-save batch, which settles it later.
 */
class BatchRun implements UploadBatch {
  readonly #deps: UploaderDeps
  readonly #items: BatchItem[]
  readonly #transfer: TransferSettings
  readonly #orgId: Id | undefined
  readonly #stop = new AbortController()
  readonly #progress: BatchProgress
  readonly #saver: SaveBatcher
  readonly #results: UploadManyResult[]
  readonly #settling: Promise<void>[] = []
  readonly #result: Promise<UploadManyResult[]>
  /**
   * The controllers of the files being sent, aborted with the batch. One listener on the batch's
   * signal for all of them: a listener added and removed per file cost more than the Set.
   */
  readonly #sending = new Set<AbortController>()
  /** Save files whose checkpoint says an earlier save went without a clear answer. */
  readonly #saveAgain: boolean
  #next = 0
  #uploading = 0

  constructor(init: {
    deps: UploaderDeps
    items: BatchItem[]
    transfer: TransferSettings
    orgId: Id | undefined
    signal: AbortSignal | undefined
    progress: BatchProgress
    workers: number
    saveAgain: boolean
  }) {
    this.#deps = init.deps
    this.#saveAgain = init.saveAgain
    this.#items = init.items
    this.#transfer = init.transfer
    this.#orgId = init.orgId
    this.#progress = init.progress
    this.#results = new Array(init.items.length)
    const size = init.deps.maxMaterialsPerSave
    this.#saver = new SaveBatcher({ api: init.deps.api, orgId: init.orgId, size, signal: this.#stop.signal })
    const untie = follow(init.signal, this.#stop)
    this.#stop.signal.addEventListener(
      'abort',
      () => {
        for (const stop of this.#sending) stop.abort(this.#stop.signal.reason)
      },
      { once: true },
    )
    this.#result = this.#run(init.workers)
    this.#result.catch(() => {}).finally(untie)
  }

  get progress(): UploadManyProgress {
    return this.#progress.current
  }
  // Arrow properties: the handle's methods work detached.
  readonly onProgress = (listener: (progress: UploadManyProgress) => void): (() => void) =>
    this.#progress.listeners.add(listener)
  readonly done = (): Promise<UploadManyResult[]> => this.#result
  readonly abort = async (reason?: unknown): Promise<void> => {
    if (!this.#stop.signal.aborted) this.#stop.abort(reason ?? abortError())
    await this.#result.then(
      () => {},
      () => {},
    )
  }

  async #run(workers: number): Promise<UploadManyResult[]> {
    const { signal } = this.#stop
    await assertWritable(this.#deps.api.orgs, this.#orgId, { signal })
    const engine = await loadEngine()
    await Promise.all(Array.from({ length: workers }, () => this.#worker(engine)))
    this.#flush()
    await Promise.all(this.#settling)
    await this.#saver.settled()
    signal.throwIfAborted()
    this.#progress.phase('done')
    return this.#results
  }

  async #worker(engine: Engine): Promise<void> {
    while (this.#next < this.#items.length && !this.#stop.signal.aborted) {
      const index = this.#next++
      this.#uploading++
      try {
        const uploaded = await this.#send(engine, index)
        this.#progress.count('uploaded')
        this.#settling.push(this.#save(index, uploaded))
      } catch (error) {
        this.#failed(index, error)
      } finally {
        this.#uploading--
        this.#flush()
      }
    }
  }

  async #send(engine: Engine, index: number): Promise<UploadedObject> {
    const item = this.#items[index] as BatchItem
    const traced = traceUpload(this.#deps.instrumentation, createProgressTracker(this.#progress.file(index)))
    const stop = new AbortController()
    const job: ObjectJob = {
      source: item.source,
      fields: item.fields,
      key: item.key,
      transfer: this.#transfer,
      stop,
      cancelled: this.#stop.signal,
      gate: undefined,
      progress: traced.progress,
      state: { completed: false },
    }
    if (this.#stop.signal.aborted) stop.abort(this.#stop.signal.reason)
    this.#sending.add(stop)
    try {
      return await traced.run(async () =>
        engine.sendObject(this.#deps, job, await engine.prepareObject(this.#deps, job)),
      )
    } finally {
      this.#sending.delete(stop)
    }
  }

  /** Joins the next material-save batch (synchronously) and settles the file once it is saved. */
  async #save(index: number, uploaded: UploadedObject): Promise<void> {
    try {
      if (uploaded.saveSentAt !== undefined && !this.#saveAgain)
        throw saveOutcomeUnknown(uploaded.material.key)
      const saved = await this.#saver.join(uploaded)
      await uploaded.finish()
      const { size, extension } = uploaded.material
      this.#results[index] = { status: 'fulfilled', index, asset: { ...saved, size, extension } }
      this.#progress.count('saved')
    } catch (error) {
      this.#failed(index, error)
    }
  }

  #failed(index: number, error: unknown): void {
    this.#results[index] = { status: 'rejected', index, error: asUploadFailure(error) }
    this.#progress.count('failed')
  }

  #flush(): void {
    const left = this.#next < this.#items.length && !this.#stop.signal.aborted
    const idle = this.#uploading === 0 && !left
    if (this.#saver.flush(idle) && this.#progress.current.phase === 'uploading')
      this.#progress.phase('saving')
  }
}
