import type { Id, MaterialInput, SavedMaterial, ValidationIssue } from '@service-sdk/core'
import { parseInput } from '@service-sdk/core/internal'
import { loadEngine } from './load-engine.ts'
import type { ObjectJob, UploadedObject } from './object-upload.ts'
import {
  type AssetFields,
  refuseSource,
  transferSettings,
  uploadManyItemSchema,
  uploadManyOptionsSchema,
  validationError,
} from './options.ts'
import { createListeners, createProgressTracker, type UploadPhase } from './progress.ts'
import type {
  UploadBatch,
  UploadedAsset,
  UploadManyItem,
  UploadManyOptions,
  UploadManyProgress,
  UploadManyResult,
  UploadSource,
} from './types.ts'
import { abortError, follow, type UploaderDeps } from './upload.ts'
import { assertWritable } from './write-check.ts'

interface Item {
  source: unknown
  fields: AssetFields
  key: string | undefined
}

/**
 * `open.uploadMany()`: `concurrency` files at a time on the shared credentials (one sts-tmp call
 * while they are fresh), one progress view, and material-save in batches of the client's
 * `maxMaterialsPerSave` (a batch goes out when full, or when no upload is left to join it).
 */
export function startUploadMany(
  deps: UploaderDeps,
  sources: Iterable<UploadSource | UploadManyItem>,
  options: UploadManyOptions = {},
): UploadBatch {
  const parsed = parseInput(uploadManyOptionsSchema, options, 'uploadMany options')
  const {
    orgId,
    concurrency,
    onProgress,
    signal,
    partSize,
    parallel,
    retry,
    timeoutMs,
    checkpoint,
    keepPartsOnFailure,
    ...shared
  } = parsed
  const items = normalize(deps, sources, shared)
  // Without a checkpoint nothing could continue a failed file's parts: they are not kept.
  const transfer = transferSettings(
    { partSize, parallel, retry, timeoutMs, checkpoint, keepPartsOnFailure },
    deps.defaults,
    deps.platform,
    checkpoint !== undefined,
  )
  const stop = new AbortController()
  const untie = follow(signal, stop)

  // One progress view: the sum of every file's.
  const listeners = createListeners(
    onProgress as ((progress: UploadManyProgress) => void) | undefined,
    deps.logger,
  )
  let current: UploadManyProgress = {
    phase: 'credentials',
    loaded: 0,
    total: 0,
    files: { total: items.length, uploaded: 0, saved: 0, failed: 0 },
  }
  const update = (change: Partial<UploadManyProgress>) => {
    current = { ...current, ...change }
    listeners.emit(current)
  }
  const files = (change: Partial<UploadManyProgress['files']>, phase?: UploadPhase) =>
    update({ files: { ...current.files, ...change }, ...(phase ? { phase } : {}) })

  // material-save batching.
  const batchSize = deps.maxMaterialsPerSave
  const waiting: Array<{
    material: MaterialInput
    resolve(saved: SavedMaterial): void
    reject(error: unknown): void
  }> = []
  let next = 0
  let uploading = 0
  const saves: Promise<void>[] = []
  const flush = () => {
    const idle = uploading === 0 && (next >= items.length || stop.signal.aborted)
    while (waiting.length >= batchSize || (idle && waiting.length > 0)) {
      const batch = waiting.splice(0, batchSize)
      if (idle && waiting.length === 0 && current.phase === 'uploading') update({ phase: 'saving' })
      saves.push(saveBatch(batch))
    }
  }
  const saveBatch = async (batch: typeof waiting) => {
    try {
      const materials = batch.map((b) => b.material)
      const saved = await deps.api.materials.save(
        orgId === undefined ? { materials } : { orgId, materials },
        {
          signal: stop.signal,
        },
      )
      const byKey = new Map(saved.map((s) => [s.key, s]))
      batch.forEach((b, i) => {
        const asset = byKey.get(b.material.key) ?? saved[i]
        if (asset) b.resolve(asset)
        else b.reject(new Error(`material-save answered without the asset for ${b.material.key}`))
      })
    } catch (error) {
      for (const b of batch) b.reject(error)
    }
  }

  const uploadObject = async (index: number, item: Item) => {
    const job: ObjectJob = {
      source: item.source,
      fields: item.fields,
      key: item.key,
      transfer,
      stop: new AbortController(),
      cancelled: stop.signal,
      gate: undefined,
      progress: createProgressTracker(track(index), deps.logger),
      state: { completed: false },
    }
    const untie = follow(stop.signal, job.stop)
    try {
      const { prepareObject, sendObject } = await loadEngine()
      return await sendObject(deps, job, await prepareObject(deps, job))
    } finally {
      untie()
    }
  }
  const results: UploadManyResult[] = new Array(items.length)
  const failed = (index: number, error: unknown) => {
    results[index] = { status: 'rejected', index, error }
    files({ failed: current.files.failed + 1 })
  }
  /** Joins the next material-save batch (synchronously) and settles the file once it is saved. */
  const save = async (index: number, uploaded: UploadedObject) => {
    try {
      const saved = await new Promise<SavedMaterial>((resolve, reject) => {
        waiting.push({ material: uploaded.material, resolve, reject })
      })
      await uploaded.finish()
      const asset: UploadedAsset = {
        ...saved,
        size: uploaded.material.size,
        extension: uploaded.material.extension,
      }
      results[index] = { status: 'fulfilled', index, asset }
      files({ saved: current.files.saved + 1 })
    } catch (error) {
      failed(index, error)
    }
  }

  // Per-file byte counts folded into the shared view.
  const loadedOf = new Array<number>(items.length).fill(0)
  const totalOf = new Array<number>(items.length).fill(0)
  const track = (index: number) => (p: { phase: UploadPhase; loaded: number; total: number | undefined }) => {
    const loaded = current.loaded + p.loaded - (loadedOf[index] ?? 0)
    const total = current.total + (p.total ?? 0) - (totalOf[index] ?? 0)
    loadedOf[index] = p.loaded
    totalOf[index] = p.total ?? 0
    update({
      loaded,
      total,
      ...(p.phase === 'uploading' && current.phase === 'credentials' ? { phase: 'uploading' } : {}),
    })
  }

  const run = async (): Promise<UploadManyResult[]> => {
    await assertWritable(deps.api.orgs, orgId as Id | undefined, { signal: stop.signal })
    const settling: Promise<void>[] = []
    // Workers move on as soon as a file is in the storage; its save settles it later.
    const worker = async () => {
      while (next < items.length && !stop.signal.aborted) {
        const index = next++
        uploading++
        try {
          const uploaded = await uploadObject(index, items[index] as Item)
          files({ uploaded: current.files.uploaded + 1 })
          settling.push(save(index, uploaded))
        } catch (error) {
          failed(index, error)
        } finally {
          uploading--
          flush()
        }
      }
    }
    await Promise.all(
      Array.from({ length: Math.min(concurrency ?? deps.defaults.concurrency, items.length) }, worker),
    )
    flush()
    await Promise.all(settling)
    await Promise.all(saves)
    stop.signal.throwIfAborted()
    update({ phase: 'done' })
    return results
  }
  const result = run()
  result.catch(() => {}).finally(untie)

  return {
    get progress() {
      return current
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

/** Every item checked before anything starts: one `ServiceValidationError` listing all problems. */
function normalize(
  deps: UploaderDeps,
  sources: Iterable<UploadSource | UploadManyItem>,
  shared: Pick<AssetFields, 'folderId' | 'description' | 'tags' | 'link'>,
): Item[] {
  const issues: ValidationIssue[] = []
  const items: Item[] = []
  const sharedFields = withoutUndefined(shared)
  let index = 0
  for (const entry of sources) {
    const at = `sources.${index++}`
    const isItem = typeof entry === 'object' && entry !== null && 'source' in entry
    if (!isItem) {
      // A bare source has no fields to check: only its kind (the batch's fields were checked once).
      issues.push(...refuseSource(deps.platform, entry, at))
      items.push({ source: entry, key: undefined, fields: sharedFields })
      continue
    }
    const checked = uploadManyItemSchema.safeParse(entry)
    if (!checked.success) {
      for (const issue of checked.error.issues)
        issues.push({ path: [at, ...issue.path].join('.'), message: issue.message })
      continue
    }
    const { source, key, ...fields } = checked.data
    issues.push(...refuseSource(deps.platform, source, `${at}.source`))
    items.push({ source, key, fields: { ...sharedFields, ...withoutUndefined(fields) } })
  }
  if (issues.length > 0) throw validationError('uploadMany sources', issues)
  return items
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
