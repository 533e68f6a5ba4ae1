import type { KnownMetadataChangePayload } from '@service-sdk/core'
import type { OpenEnum } from '@service-sdk/core/schemas'
import { isKnownChangeType } from '@service-sdk/core/schemas'
import { describe, expectTypeOf, test } from 'vitest'
import type { WebhookHandlers } from '../receiver/processor.ts'
import type { HandlerContext, WebhookReceiver } from '../receiver/receiver.ts'
import type { WebhookWorker } from '../receiver/run-worker.ts'
import type { UnknownWebhookEvent, WebhookEventOf } from './events.ts'
import type { SchemaWarning } from './warnings.ts'

describe('handler types: known values typed, unknown ones accepted', () => {
  test('open enums keep their known literals and accept other values', () => {
    type Deleted = WebhookEventOf<'MATERIAL_DELETED'>
    expectTypeOf<Deleted['payload']['deleteAction']>().toEqualTypeOf<
      OpenEnum<'RECYCLE' | 'PERMANENT'> | undefined
    >()
    expectTypeOf<'ARCHIVE'>().toExtend<Deleted['payload']['deleteAction']>()
    type Version = WebhookEventOf<'MATERIAL_VERSION_CHANGED'>['payload']
    expectTypeOf<'MERGE'>().toExtend<Version['action']>()
    expectTypeOf<'REMOVE'>().toExtend<Version['action']>()
    expectTypeOf<'API_IMPORT'>().toExtend<WebhookEventOf<'MATERIAL_INBOUND_COMPLETED'>['payload']['source']>()
  })

  test('the folder callback: other types and sources, null assets, optional eventTime', () => {
    type Folder = WebhookEventOf<'FOLDER_CONTENT_UPDATE'>
    expectTypeOf<'MOVE'>().toExtend<Folder['type']>()
    expectTypeOf<Folder['assets']>().toExtend<unknown[] | null>()
    expectTypeOf<null>().toExtend<Folder['assets']>()
    expectTypeOf<4>().toExtend<NonNullable<Folder['assets']>[number]['source']>()
    expectTypeOf<Folder['eventTime']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Folder['eventTimeMs']>().toEqualTypeOf<number>()
  })

  test('metadata: isKnownChangeType narrows, then changeType narrows the items', () => {
    const payload = {} as WebhookEventOf<'MATERIAL_METADATA_UPDATED'>['payload']
    if (isKnownChangeType(payload)) {
      expectTypeOf(payload).toExtend<KnownMetadataChangePayload>()
      if (payload.changeType === 'TAGS') {
        expectTypeOf(payload.materials).toExtend<Array<{ tagIds?: string[] }> | undefined>()
      }
    } else {
      expectTypeOf(payload.changeType).toEqualTypeOf<string>()
    }
  })

  test('handlers get the warnings', () => {
    expectTypeOf<HandlerContext['warnings']>().toEqualTypeOf<readonly SchemaWarning[]>()
  })
})

test("a worker's on() types the event by its eventType, as a receiver's does", () => {
  const worker = {} as WebhookWorker
  worker.on('MATERIAL_DELETED', (event) => {
    expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'MATERIAL_DELETED'>>()
  })
  worker.onUnknown('SOMETHING_NEW', (event) => {
    expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>()
  })
})

describe('an event type this SDK does not know, a misspelt one included, does not compile in on()', () => {
  test('receiver.on and worker.on refuse it; onUnknown is the explicit escape hatch', () => {
    const receiver = {} as WebhookReceiver
    const worker = {} as WebhookWorker
    // @ts-expect-error: misspelt (MATERIAL_DELETED): the handler would never run
    receiver.on('MATERIAL_DELETD', () => {})
    // @ts-expect-error: one misspelt type in a list
    receiver.on(['MATERIAL_DELETED', 'FOLDER_CONTENT_UPDATED'], () => {})
    // @ts-expect-error: a type the service may add later is not a known one
    worker.on('SOMETHING_NEW', () => {})
    receiver.onUnknown('SOMETHING_NEW', (event) => {
      expectTypeOf(event.eventType).toEqualTypeOf<string>()
    })
  })

  test("runWorker's handlers: a misspelt key does not compile", () => {
    const handlers: WebhookHandlers = {
      MATERIAL_DELETED: (event) => void event.payload.materialIds,
      '*': () => {},
      // @ts-expect-error: misspelt (MATERIAL_DELETED)
      MATERIAL_DELETD: () => {},
    }
    void handlers
  })
})
