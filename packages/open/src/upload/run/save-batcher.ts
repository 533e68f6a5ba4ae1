import type { Id, SavedMaterial } from '@service-sdk/core'
import { type OpenApi, saveUploaded } from '../../api.ts'
import type { UploadedObject } from '../engine/object-job.ts'
import { missingAsset } from './missing-asset.ts'
import { saveMayHaveHappened, saveOutcomeUnknown } from './save-outcome.ts'

interface Waiting {
  uploaded: UploadedObject
  resolve(saved: SavedMaterial): void
  reject(error: unknown): void
}

/**
 * material-save in batches of `size`: an object's material joins the next batch and is settled
 * when that batch is saved. A batch goes out when full, or when the caller says no file is left
 * to join it. Each object's checkpoint records the save before it is sent; a batch that went
 * without a clear answer fails its files with `save_outcome_unknown` (never sent again by itself).
 */
export class SaveBatcher {
  readonly #api: OpenApi
  readonly #orgId: Id | undefined
  readonly #size: number
  readonly #signal: AbortSignal
  readonly #waiting: Waiting[] = []
  readonly #saves: Promise<void>[] = []

  constructor(init: { api: OpenApi; orgId: Id | undefined; size: number; signal: AbortSignal }) {
    this.#api = init.api
    this.#orgId = init.orgId
    this.#size = init.size
    this.#signal = init.signal
  }

  /** Joins the next batch (synchronously); resolves with the saved asset. */
  join(uploaded: UploadedObject): Promise<SavedMaterial> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ uploaded, resolve, reject })
    })
  }

  /** Sends every full batch, and with `idle` (nothing left to join) the rest; true when it did send the last. */
  flush(idle: boolean): boolean {
    let last = false
    while (this.#waiting.length >= this.#size || (idle && this.#waiting.length > 0)) {
      const batch = this.#waiting.splice(0, this.#size)
      if (idle && this.#waiting.length === 0) last = true
      this.#saves.push(this.#save(batch))
    }
    return last
  }

  /** Resolves once every batch sent so far is answered. */
  async settled(): Promise<void> {
    await Promise.all(this.#saves)
  }

  async #save(batch: Waiting[]): Promise<void> {
    const materials = batch.map((b) => b.uploaded.material)
    let saved: SavedMaterial[]
    try {
      await Promise.all(batch.map((b) => b.uploaded.saving()))
      const orgId = this.#orgId
      const input = orgId === undefined ? { materials } : { orgId, materials }
      saved = await saveUploaded(this.#api, input, { signal: this.#signal })
    } catch (error) {
      const aborted = this.#signal.aborted
      if (!saveMayHaveHappened(error, aborted)) await Promise.all(batch.map((b) => b.uploaded.saveRefused()))
      else if (!aborted) {
        for (const b of batch) b.reject(saveOutcomeUnknown(b.uploaded.material.key, error))
        return
      }
      for (const b of batch) b.reject(error)
      return
    }
    const byKey = new Map(saved.map((s) => [s.key, s]))
    batch.forEach((b, i) => {
      const { key } = b.uploaded.material
      const asset = byKey.get(key) ?? saved[i]
      if (asset) b.resolve(asset)
      else b.reject(saveOutcomeUnknown(key, missingAsset(key)))
    })
  }
}
