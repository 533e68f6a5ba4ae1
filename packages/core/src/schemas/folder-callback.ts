import { z } from 'zod'
import { eventTimeSchema } from './event-time.ts'
import { idSchema } from './ids.ts'
import { openCode, openEnum } from './open-enum.ts'
import { folderEventTypeSchema } from './subscriptions.ts'

/** The known values of the callback's `type` and of an asset's `source` (others are kept). */
export const FOLDER_CHANGE_TYPES = ['ADD', 'UPDATE', 'DELETE'] as const
export const ASSET_SOURCES = [1, 2, 3] as const

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
  source: nullable(openCode(ASSET_SOURCES)),
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

/**
 * Body of the folder-content callback. `eventTime` may be ISO 8601 or epoch-ms digits, or absent;
 * `assets` may be null; `type` and assets' `source` may hold values added since.
 */
export const folderContentCallbackSchema = z.looseObject({
  eventType: folderEventTypeSchema,
  folderId: idSchema,
  eventTime: eventTimeSchema.exactOptional(),
  type: openEnum(FOLDER_CHANGE_TYPES),
  assets: z.array(materialCallbackAssetSchema).nullable(),
  orgId: nullable(idSchema),
})
