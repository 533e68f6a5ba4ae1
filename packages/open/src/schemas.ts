// The zod schemas the open client checks input (and, with validateResponses, answers) against.
// Imported on the first call that needs them (`loadSchemas`), so that a browser page importing
// the client does not download zod up front (packages/open/test/browser-size.test.ts).
import { eventTypeEntrySchema } from '@service-sdk/core/schemas'
import { z } from 'zod'

export {
  eventSubscribeInputSchema,
  folderSubscribeInputSchema,
  materialSaveInputSchema,
  materialSaveResultSchema,
  orgInfoResultSchema,
  uploadCredentialSchema,
} from '@service-sdk/core/schemas'

export const eventTypeListSchema = z.array(eventTypeEntrySchema)

/** A subscription change answers whether it was applied. */
export const appliedSchema = z.boolean()
