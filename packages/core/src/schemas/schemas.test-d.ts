import { describe, expectTypeOf, test } from 'vitest'
import type { z } from 'zod'
import type * as T from '../types.ts'
import { isKnownChangeType } from './asset-events.ts'
import type * as S from './index.ts'

// Each schema's output must fit the generated type it mirrors, and the generated type must fit
// the schema's output (loose objects only add an index signature): compatible in both directions.
type Out<Schema extends z.ZodType> = z.output<Schema>

describe('ids', () => {
  test('idSchema outputs Id and accepts digits, numbers and bigints', () => {
    expectTypeOf<Out<typeof S.idSchema>>().toEqualTypeOf<T.Id>()
    expectTypeOf<T.IdLike>().toEqualTypeOf<string | number | bigint>()
  })
})

describe('area A', () => {
  test('responses', () => {
    expectTypeOf<Out<typeof S.teamMemberSchema>>().toExtend<T.TeamMember>()
    expectTypeOf<T.TeamMember>().toExtend<Out<typeof S.teamMemberSchema>>()
    expectTypeOf<Out<typeof S.createdMemberSchema>>().toExtend<T.CreatedMember>()
    expectTypeOf<T.CreatedMember>().toExtend<Out<typeof S.createdMemberSchema>>()
    expectTypeOf<Out<typeof S.impersonationSchema>>().toExtend<T.Impersonation>()
    expectTypeOf<T.Impersonation>().toExtend<Out<typeof S.impersonationSchema>>()
  })
  test('inputs', () => {
    expectTypeOf<Out<typeof S.createMemberInputSchema>>().toEqualTypeOf<S.CreateMemberInput>()
    expectTypeOf<Out<typeof S.inviteMemberInputSchema>>().toEqualTypeOf<S.InviteMemberInput>()
    expectTypeOf<Out<typeof S.impersonationRequestSchema>>().toEqualTypeOf<S.ImpersonationRequest>()
  })
})

describe('area B', () => {
  test('responses', () => {
    expectTypeOf<Out<typeof S.uploadCredentialSchema>>().toExtend<T.UploadCredential>()
    expectTypeOf<T.UploadCredential>().toExtend<Out<typeof S.uploadCredentialSchema>>()
    expectTypeOf<Out<typeof S.orgSpaceSchema>>().toExtend<T.OrgSpace>()
    expectTypeOf<T.OrgSpace>().toExtend<Out<typeof S.orgSpaceSchema>>()
    expectTypeOf<Out<typeof S.roleCodeSchema>>().toEqualTypeOf<T.RoleCode>()
    expectTypeOf<Out<typeof S.savedMaterialSchema>>().toExtend<T.SavedMaterial>()
    expectTypeOf<T.SavedMaterial>().toExtend<Out<typeof S.savedMaterialSchema>>()
    expectTypeOf<Out<typeof S.eventTypeEntrySchema>>().toExtend<T.EventTypeEntry>()
    expectTypeOf<T.EventTypeEntry>().toExtend<Out<typeof S.eventTypeEntrySchema>>()
    expectTypeOf<Out<typeof S.openCodeSchema>>().toEqualTypeOf<T.OpenCode>()
  })
  test('inputs and request bodies', () => {
    expectTypeOf<Out<typeof S.materialInputSchema>>().toEqualTypeOf<T.MaterialInput>()
    expectTypeOf<Out<typeof S.materialSaveInputSchema>>().toEqualTypeOf<S.MaterialSaveInput>()
    expectTypeOf<Out<typeof S.materialSaveRequestSchema>>().toEqualTypeOf<S.MaterialSaveInput>()
    expectTypeOf<Out<typeof S.folderSubscribeRequestSchema>>().toEqualTypeOf<S.FolderSubscribeRequest>()
    expectTypeOf<Out<typeof S.folderSubscribeInputSchema>>().toEqualTypeOf<
      Omit<S.FolderSubscribeRequest, 'operation'>
    >()
    expectTypeOf<Out<typeof S.eventSubscribeRequestSchema>>().toEqualTypeOf<S.EventSubscribeRequest>()
    expectTypeOf<Out<typeof S.eventSubscribeInputSchema>>().toEqualTypeOf<
      Omit<S.EventSubscribeRequest, 'operation'>
    >()
    expectTypeOf<Out<typeof S.assetEventTypeSchema>>().toEqualTypeOf<T.AssetEventType>()
    expectTypeOf<(typeof S.ASSET_EVENT_TYPES)[number]>().toEqualTypeOf<T.AssetEventType>()
    expectTypeOf<Out<typeof S.subscriptionOperationSchema>>().toEqualTypeOf<T.SubscriptionOperation>()
  })
  test('params accept ids in every form', () => {
    expectTypeOf<T.MaterialSaveParams['orgId']>().toEqualTypeOf<string | number | bigint | undefined>()
    expectTypeOf<T.FolderSubscribeParams['folderIds']>().toEqualTypeOf<Array<string | number | bigint>>()
    // A value typed with the generated request type is valid input.
    expectTypeOf<S.MaterialSaveInput>().toExtend<T.MaterialSaveParams>()
  })
})

describe('callbacks and webhooks', () => {
  test('folder-content callback', () => {
    expectTypeOf<Out<typeof S.materialCallbackAssetSchema>>().toExtend<T.MaterialCallbackAsset>()
    expectTypeOf<T.MaterialCallbackAsset>().toExtend<Out<typeof S.materialCallbackAssetSchema>>()
    expectTypeOf<Out<typeof S.folderContentCallbackSchema>>().toExtend<T.FolderContentCallback>()
    expectTypeOf<T.FolderContentCallback>().toExtend<Out<typeof S.folderContentCallbackSchema>>()
  })
  test('asset events', () => {
    expectTypeOf<
      Out<typeof S.materialInboundCompletedEventSchema>
    >().toExtend<T.MaterialInboundCompletedEvent>()
    expectTypeOf<T.MaterialInboundCompletedEvent>().toExtend<
      Out<typeof S.materialInboundCompletedEventSchema>
    >()
    expectTypeOf<Out<typeof S.materialAddedToFolderEventSchema>>().toExtend<T.MaterialAddedToFolderEvent>()
    expectTypeOf<T.MaterialAddedToFolderEvent>().toExtend<Out<typeof S.materialAddedToFolderEventSchema>>()
    expectTypeOf<
      Out<typeof S.materialMetadataUpdatedEventSchema>
    >().toExtend<T.MaterialMetadataUpdatedEvent>()
    expectTypeOf<T.MaterialMetadataUpdatedEvent>().toExtend<
      Out<typeof S.materialMetadataUpdatedEventSchema>
    >()
    expectTypeOf<Out<typeof S.materialVersionChangedEventSchema>>().toExtend<T.MaterialVersionChangedEvent>()
    expectTypeOf<T.MaterialVersionChangedEvent>().toExtend<Out<typeof S.materialVersionChangedEventSchema>>()
    expectTypeOf<Out<typeof S.materialDeletedEventSchema>>().toExtend<T.MaterialDeletedEvent>()
    expectTypeOf<T.MaterialDeletedEvent>().toExtend<Out<typeof S.materialDeletedEventSchema>>()
    expectTypeOf<Out<typeof S.assetEventSchema>>().toExtend<T.AssetEvent>()
    expectTypeOf<T.AssetEvent>().toExtend<Out<typeof S.assetEventSchema>>()
  })
  test('metadata items are typed by changeType', () => {
    type Payload = Out<typeof S.materialMetadataUpdatedPayloadSchema>
    type Items<C extends T.MetadataChangeType> = NonNullable<
      Extract<Payload, { changeType: C }>['materials']
    >[number]
    expectTypeOf<Items<'OWNER'>['ownerUserId']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Items<'TAGS'>['tagIds']>().toEqualTypeOf<string[] | undefined>()
    expectTypeOf<Items<'CUSTOM_FIELD'>>().toExtend<T.CustomFieldChange>()
    expectTypeOf<T.MetadataChangeType>().toEqualTypeOf<
      'BASIC' | 'VALIDITY' | 'TAGS' | 'OWNER' | 'METADATA' | 'CUSTOM_FIELD'
    >()
  })
})

describe('open enums', () => {
  test('known values stay literal types, other strings and codes are accepted', () => {
    type DeleteAction = Exclude<Out<typeof S.materialDeletedPayloadSchema>['deleteAction'], undefined>
    expectTypeOf<DeleteAction>().toEqualTypeOf<S.OpenEnum<'RECYCLE' | 'PERMANENT'>>()
    expectTypeOf<'RECYCLE'>().toExtend<DeleteAction>()
    expectTypeOf<'ARCHIVE'>().toExtend<DeleteAction>()
    // The literals are not absorbed into `string`: editors still offer the known values.
    expectTypeOf<Extract<DeleteAction, 'RECYCLE'>>().toEqualTypeOf<'RECYCLE'>()
    expectTypeOf<T.VersionAction>().toEqualTypeOf<S.OpenEnum<(typeof S.VERSION_ACTIONS)[number]>>()
    type Folder = Out<typeof S.folderContentCallbackSchema>
    expectTypeOf<'MOVE'>().toExtend<Folder['type']>()
    expectTypeOf<null>().toExtend<Folder['assets']>()
    expectTypeOf<undefined>().toExtend<Folder['eventTime']>()
    type Source = Out<typeof S.materialCallbackAssetSchema>['source']
    expectTypeOf<4>().toExtend<Source>()
    expectTypeOf<Source>().toEqualTypeOf<S.OpenEnum<1 | 2 | 3> | null | undefined>()
  })
  test('isKnownChangeType narrows a metadata payload so that changeType narrows its items', () => {
    const payload = {} as Out<typeof S.materialMetadataUpdatedPayloadSchema>
    if (isKnownChangeType(payload)) {
      expectTypeOf(payload.changeType).toEqualTypeOf<T.MetadataChangeType>()
      if (payload.changeType === 'OWNER') {
        expectTypeOf(payload.materials).toExtend<T.OwnerChange[] | undefined>()
      }
    } else {
      expectTypeOf(payload.changeType).toEqualTypeOf<string>()
      expectTypeOf(payload.materials).toEqualTypeOf<Array<Record<string, unknown>> | undefined>()
    }
  })
})
