import { z } from 'zod'
import { eventTimeSchema } from './event-time.ts'
import { idSchema } from './ids.ts'
import { folderEventTypeSchema } from './subscriptions.ts'

// Real callbacks carry nulls in any field, and DELETE assets may carry only their id.
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().exactOptional()

/**
 * An asset of a folder-content callback (MaterialCallbackDTO). `size` is labelled KB by the
 * interface but samples suggest bytes: the unit is unverified.
 */
export const materialCallbackAssetSchema = z.looseObject({
  id: idSchema,
  parentIds: nullable(z.array(idSchema)),
  userId: nullable(idSchema),
  name: nullable(z.string()),
  downloadUrl: nullable(z.string()),
  source: nullable(z.literal([1, 2, 3])),
  link: nullable(z.string()),
  extension: nullable(z.string()),
  duration: nullable(z.number()),
  size: nullable(z.number()),
  width: nullable(z.number()),
  height: nullable(z.number()),
  description: nullable(z.string()),
  score: nullable(z.number()),
  createUser: nullable(idSchema),
})

/** Body of the folder-content callback. `eventTime` may be ISO 8601 or epoch-ms digits. */
export const folderContentCallbackSchema = z.looseObject({
  eventType: folderEventTypeSchema,
  folderId: idSchema,
  eventTime: eventTimeSchema,
  type: z.enum(['ADD', 'UPDATE', 'DELETE']),
  assets: z.array(materialCallbackAssetSchema),
  orgId: nullable(idSchema),
})
