import {
  type MaterialInput,
  type SavedMaterial,
  type ServiceApiErrorCode,
  ServiceError,
} from '@service-sdk/core'

/**
 * A long material-save went out in batches and a later batch failed: the assets of the earlier
 * batches exist. `saved` lists them; `unsaved` is what remains to save; `cause` is the failure.
 */
export class MaterialSaveError extends ServiceError {
  static override readonly kind: string = 'MaterialSaveError'
  /** The failed batch's code (its error's, e.g. `MS100001`), or `material_save_failed`. */
  declare readonly code: 'material_save_failed' | ServiceApiErrorCode
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

/** Why the write rule refused a space (see `canWrite`). */
export type NotWritableReason = 'not_member' | 'view_only' | 'expired'

/**
 * The client's own check of the write rule refused a space before anything was uploaded: the
 * caller is not a member, has the view-only role, or the space is no longer valid. The service
 * was not asked to write (it answered only org-info), so this is not a `ServicePermissionError`.
 */
export class SpaceNotWritableError extends ServiceError {
  static override readonly kind: string = 'SpaceNotWritableError'
  declare readonly code: 'not_writable'
  /** The space refused. */
  readonly orgId: string
  readonly reason: NotWritableReason

  constructor(orgId: string, reason: NotWritableReason, message: string) {
    super(message, { code: 'not_writable', isRetryable: false })
    this.orgId = orgId
    this.reason = reason
  }

  override toJSON() {
    return { ...super.toJSON(), orgId: this.orgId, reason: this.reason }
  }
}

/**
 * The service answered `false` to a subscription change (folders or asset events, ADD or
 * DELETE): it accepted the request and applied nothing. Not retried: the same request would get
 * the same answer; check the ids and the API key's capabilities.
 */
export class SubscriptionNotAppliedError extends ServiceError {
  static override readonly kind: string = 'SubscriptionNotAppliedError'
  declare readonly code: 'not_applied'
  /** The subscription endpoint, e.g. `/api/service/folder-subscribe`. */
  readonly path: string
  readonly operation: 'ADD' | 'DELETE'

  constructor(path: string, operation: 'ADD' | 'DELETE') {
    super(`The service answered false to ${operation} on ${path}: nothing was applied.`, {
      code: 'not_applied',
      isRetryable: false,
    })
    this.path = path
    this.operation = operation
  }

  override toJSON() {
    return { ...super.toJSON(), path: this.path, operation: this.operation }
  }
}
