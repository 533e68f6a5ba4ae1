import { type MaterialInput, type SavedMaterial, ServiceError } from '@service-sdk/core'

/**
 * A long material-save went out in batches and a later batch failed: the assets of the earlier
 * batches exist. `saved` lists them; `unsaved` is what remains to save; `cause` is the failure.
 */
export class MaterialSaveError extends ServiceError {
  static override readonly kind: string = 'MaterialSaveError'
  readonly saved: SavedMaterial[]
  readonly unsaved: MaterialInput[]

  constructor(saved: SavedMaterial[], unsaved: MaterialInput[], cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    super(
      `${saved.length} materials were saved, then a batch failed (${reason}). Save the ${unsaved.length} in \`unsaved\` again once the cause is fixed.`,
      {
        code: ServiceError.isInstance(cause) ? cause.code : 'material_save_failed',
        isRetryable: ServiceError.isInstance(cause) ? cause.isRetryable : false,
        cause,
      },
    )
    this.saved = saved
    this.unsaved = unsaved
  }

  override toJSON() {
    return { ...super.toJSON(), saved: this.saved.length, unsaved: this.unsaved.length }
  }
}
