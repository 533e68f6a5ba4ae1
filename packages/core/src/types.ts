import type { z } from 'zod'
import type {
  eventSubscribeInputSchema,
  folderSubscribeInputSchema,
  idSchema,
  METADATA_CHANGE_TYPES,
  materialInputSchema,
  materialSaveInputSchema,
} from './schemas/index.ts'
import type { Schemas } from './schemas/request-types.ts'

// Friendly names for the types generated from spec/openapi.yaml that a caller of the clients
// names: resources, events and what the methods accept. They describe the SDK's view of the wire:
// every id is a string of decimal digits. The request bodies as sent are in
// `@service-sdk/core/schemas` (schemas/request-types.ts), beside the schemas that make them, and
// so is `Schemas`, every schema of the spec.

/** A 64-bit id as a string of decimal digits (on the wire: a JSON integer, often beyond 2^53). */
export type Id = Schemas['Id']

// Area A
export type TeamMember = Schemas['TeamMember']
export type CreatedMember = Schemas['CreatedMember']
export type Impersonation = Schemas['Impersonation']

// Area B
export type OpenCode = Schemas['OpenCode']
export type UploadCredential = Schemas['UploadCredential']
export type OrgSpace = Schemas['OrgSpace']
export type RoleCode = Schemas['RoleCode']
export type MaterialInput = Schemas['MaterialInput']
export type SavedMaterial = Schemas['SavedMaterial']
export type SubscriptionOperation = Schemas['SubscriptionOperation']
export type FolderEventType = Schemas['FolderEventType']
export type AssetEventType = Schemas['AssetEventType']
export type EventTypeEntry = Schemas['EventTypeEntry']

// Folder-content callback
export type MaterialCallbackAsset = Schemas['MaterialCallbackAsset']
export type FolderContentCallback = Schemas['FolderContentCallback']

// Asset events
export type MaterialInboundCompletedEvent = Schemas['MaterialInboundCompletedEvent']
export type MaterialInboundCompletedPayload = Schemas['MaterialInboundCompletedPayload']
export type InboundUploadResult = Schemas['InboundUploadResult']
export type MaterialAddedToFolderEvent = Schemas['MaterialAddedToFolderEvent']
export type MaterialAddedToFolderPayload = Schemas['MaterialAddedToFolderPayload']
export type MaterialMetadataUpdatedEvent = Schemas['MaterialMetadataUpdatedEvent']
export type MaterialMetadataUpdatedPayload = Schemas['MaterialMetadataUpdatedPayload']
/** A payload whose changeType this SDK does not know; `isKnownChangeType` narrows it away. */
export type OtherMetadataChangePayload = Schemas['OtherMetadataChangePayload']
/** The changeTypes this SDK types (the service may send others). */
export type MetadataChangeType = (typeof METADATA_CHANGE_TYPES)[number]
/** A MATERIAL_METADATA_UPDATED payload whose changeType is known: `switch (payload.changeType)` narrows it. */
export type KnownMetadataChangePayload = Extract<
  MaterialMetadataUpdatedPayload,
  { changeType: MetadataChangeType }
>
export type BasicChange = Schemas['BasicChange']
export type ValidityChange = Schemas['ValidityChange']
export type TagsChange = Schemas['TagsChange']
export type OwnerChange = Schemas['OwnerChange']
export type MetadataChange = Schemas['MetadataChange']
export type CustomFieldChange = Schemas['CustomFieldChange']
export type CustomFieldValue = Schemas['CustomFieldValue']
export type MaterialVersionChangedEvent = Schemas['MaterialVersionChangedEvent']
export type MaterialVersionChangedPayload = Schemas['MaterialVersionChangedPayload']
export type VersionAction = Schemas['VersionAction']
export type MaterialDeletedEvent = Schemas['MaterialDeletedEvent']
export type MaterialDeletedPayload = Schemas['MaterialDeletedPayload']
export type DeletedMaterialSnapshot = Schemas['DeletedMaterialSnapshot']
export type AssetEvent = Schemas['AssetEvent']

// What the SDK's methods accept: the input schemas' input types, where an id may also be a safe
// integer or a bigint (the schemas turn it into its decimal string).

/** An id as accepted from callers: decimal digits, a safe non-negative integer, or a bigint. */
export type IdLike = z.input<typeof idSchema>
export type MaterialParams = z.input<typeof materialInputSchema>
export type MaterialSaveParams = z.input<typeof materialSaveInputSchema>
export type FolderSubscribeParams = z.input<typeof folderSubscribeInputSchema>
export type EventSubscribeParams = z.input<typeof eventSubscribeInputSchema>
