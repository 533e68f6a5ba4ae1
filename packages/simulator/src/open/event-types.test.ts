import { ASSET_EVENT_TYPES, FOLDER_CONTENT_UPDATE as SDK_FOLDER_EVENT } from '@service-sdk/core/schemas'
import { expect, test } from 'vitest'
import { ASSET_EVENTS, FOLDER_CONTENT_UPDATE } from './event-types.ts'

// The simulator keeps its own copy of the event types (it shares no code with the SDK it tests);
// the copy is held to the spec's, as the SDK's schemas state them.
test("the simulator's event types are the spec's", () => {
  expect(ASSET_EVENTS.map((e) => e.code)).toEqual([...ASSET_EVENT_TYPES])
  expect(FOLDER_CONTENT_UPDATE).toBe(SDK_FOLDER_EVENT)
})
