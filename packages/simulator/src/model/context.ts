import type { Logger } from '@service-sdk/core'
import type { Faults } from '../control/faults.ts'
import type { ObjectStore, OssCors } from '../oss/index.ts'
import type { Id, Material, State } from './state.ts'

/** Variations the live service has been seen to show, switchable per test (docs/service-behaviour.md, "Live-service variations"). */
export interface Quirks {
  /** The success code of open-area envelopes: "0" (default), 0, or "200". */
  successCode: '0' | 0 | '200'
  /** Answer the event-types query with a bare list instead of the envelope. */
  bareEventTypes: boolean
  /**
   * The message family the selector page posts (docs/service-behaviour.md lists two): `choiceModal`,
   * `selector`, or `both` (each message in both families). Default `both`.
   */
  selectorFamily?: 'choiceModal' | 'selector' | 'both'
  /**
   * The unit of `size` in folder-callback assets: `bytes` (default; what comparable samples
   * carry) or `KB` (rounded up; what the callback's field table labels it).
   */
  callbackSizeUnit?: 'bytes' | 'KB'
  /**
   * Callbacks and asset events drift as a newer service may send them: unknown enum values,
   * extra fields (a `__proto__`-named one among them), null containers, 19-digit numeric
   * eventIds, missing optional fields. Each variation applies with this probability (`true`
   * is 1), drawn from the generator seeded by `faultSeed`. Default off. See webhooks/drift.ts.
   */
  drift?: boolean | number
  /**
   * How the selector page sends the ids of its success message: `exact` (default: JSON numbers up
   * to 2^53 − 1, decimal strings beyond), or `numbers` (always JSON numbers, so ids beyond 2^53
   * arrive rounded, as from a page that parsed them with `JSON.parse`).
   */
  selectorIds?: 'exact' | 'numbers'
  /** How the selector page reports the personal space: orgId `1` (default), or no orgId at all. */
  selectorPersonalOrg?: 'one' | 'absent'
  /**
   * Which material-save body form is accepted (spec: `MaterialSaveRequest` shows both and says not which):
   * `top-level` `{orgId?, materials}`, `param` `{param: {orgId?, materials}}`, or `both` (default).
   * The other form gets the service's parameter error (MB100001).
   */
  materialSaveForm?: MaterialSaveForm
  /**
   * The `dir` of sts-tmp's credentials: `user` (default: `upload/<userId>/`), or `empty` (spec:
   * `UploadCredential.dir` may be empty): the credential covers the whole bucket, keys start at
   * its root, and material-save accepts any key of the bucket.
   */
  stsDir?: 'user' | 'empty'
  /**
   * The field an asset event's object is sent under: `payload` (default: what samples of the live
   * service show), or another name: the interface's table writes it as "the service" (the brand
   * word replaced), and a tenant might see any name.
   */
  assetEventObject?: string
  /**
   * The bucket's CORS rules (`OssCors`): `'open'` (default: any origin, method and header, with
   * `ETag`, `x-oss-request-id` and `x-oss-hash-crc64ecma` exposed), `'none'` (a bucket without
   * CORS rules: preflights refused, no `Access-Control-*` header on any answer), or rules as
   * PutBucketCors takes them.
   */
  ossCors?: OssCors
  /**
   * The event-types query of an API key whose team lacks the asset-event capability is refused
   * (MB100002), as subscribing is. Default `false`: the list is answered to every key (the spec
   * says only that subscribing fails).
   */
  eventTypesNeedCapability?: boolean
}

export type MaterialSaveForm = 'top-level' | 'param' | 'both'

/** A material as material-save saved it, with the address its bytes are served from. */
export interface SavedMaterial extends Material {
  accessUrl: string
}

/** Changes that produce callbacks and webhooks; implemented by the webhook sender. */
export interface SimEvents {
  /** material-save (or the selector's upload) saved these assets. */
  materialsSaved(materials: SavedMaterial[], initiatorUserId: Id): void
}

/** What every part of the simulator shares. */
export interface SimContext {
  state: State
  store: ObjectStore
  faults: Faults
  events: SimEvents
  quirks: Quirks
  now(): number
  /** The object storage endpoint handed out by sts-tmp (spec: `UploadCredential.endPoint`; here `http://127.0.0.1:port`). */
  ossEndpoint(): string
  /** The service's origin as its clients reach it (download links in callbacks). */
  publicOrigin(): string
  /** How long issued STS credentials live. */
  stsTtlMs: number
  /** Where the simulator's own failures go (see host/logger.ts). */
  logger: Logger
}

/** What each metadata change of MATERIAL_METADATA_UPDATED carries, by changeType (spec: `MaterialMetadataUpdatedPayload`). */
export type MetadataChange =
  | { changeType: 'BASIC'; name?: string; description?: string; score?: number; link?: string }
  | {
      changeType: 'VALIDITY'
      validityStatus: number
      validityStatusName?: string
      daysToExpire?: number
      startTime?: number
      endTime?: number
      isPermanent?: boolean
    }
  | { changeType: 'TAGS'; tagNames: string[] }
  | { changeType: 'OWNER'; ownerUserId: Id }
  | { changeType: 'METADATA'; metadata: Record<string, unknown>; recordId?: Id }
  | { changeType: 'CUSTOM_FIELD'; customFields: Array<{ templateId: Id } & Record<string, unknown>> }

/**
 * Changes other than uploads, made through the control API; each emits the callbacks and
 * asset events the live service would. Each returns the eventIds of the asset events it queued.
 */
export interface MaterialChanges {
  updateMetadata(materialId: Id, change: MetadataChange): string[]
  /** A new version of a version line: `newMaterialId` joins `coverMaterialId`'s line (action ADD). */
  addVersion(coverMaterialId: Id, newMaterialId: Id): string[]
  /** Make a version the cover of its line (action SET_COVER). */
  setCover(materialId: Id): string[]
  /** Remove a version from its line (action REMOVE): back into the folder (ADD) or to the recycle bin (DELETE). */
  removeVersion(materialId: Id, removeType: 'ADD' | 'DELETE'): string[]
  /** Add existing assets to a folder (MATERIAL_ADDED_TO_FOLDER; callback ADD). */
  addToFolder(materialIds: Id[], folderId: Id): string[]
  /**
   * A newly uploaded version replaces the cover: `newMaterialId` joins `coverMaterialId`'s line
   * and becomes its cover (action REPLACE_COVER_ON_UPLOAD).
   */
  replaceCoverOnUpload(coverMaterialId: Id, newMaterialId: Id): string[]
  /**
   * Files that waited in the pending intake are confirmed: they become assets of `target`
   * (folder callback ADD, MATERIAL_INBOUND_COMPLETED with source PENDING_INBOUND_CONFIRM and
   * pendingInboundIdToMaterialId, MATERIAL_ADDED_TO_FOLDER).
   */
  confirmPendingIntake(items: PendingIntakeItem[], target?: IntakeTarget): Promise<string[]>
  /**
   * Delete to the recycle bin (MATERIAL_DELETED RECYCLE; callback DELETE). With `folderIds`,
   * those folders (and their subfolders) are deleted in the same batch: MATERIAL_DELETED carries
   * them, and an asset whose every folder is deleted goes to the recycle bin with them.
   */
  delete(materialIds: Id[], options?: { folderIds?: Id[] }): string[]
  /** Permanent cleanup of recycled assets (MATERIAL_DELETED PERMANENT). */
  purge(materialIds: Id[]): string[]
}

/** A file waiting in the pending intake (its bytes are `content`, UTF-8; default its name). */
export interface PendingIntakeItem {
  name: string
  extension: string
  content?: string
}

/** Where confirmed intake lands: a team space (`orgId`) or the personal space, a folder (0: root). */
export interface IntakeTarget {
  orgId?: Id
  folderId?: Id
  /** Who confirmed it (initiatorUserId). Default: the seed's caller. */
  userId?: Id
}
