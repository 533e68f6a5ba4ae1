import { z } from 'zod'
import { MAX_MATERIALS_PER_SAVE } from '../limits.ts'
import { idSchema } from './ids.ts'

// Responses (area B, /open-api paths): tolerant, unknown fields kept.

/** Temporary object-storage credentials (result of sts-tmp). */
export const uploadCredentialSchema = z.looseObject({
  endPoint: z.string(),
  bucket: z.string(),
  dir: z.string(),
  accessKeyId: z.string(),
  accessKeySecret: z.string(),
  securityToken: z.string(),
})

/** Role codes in the order of roleId 1..6. */
export const ROLE_CODES = [
  'owner',
  'admin',
  'member_edit',
  'member_view',
  'member_upload_view',
  'member_upload_view_download',
] as const

export const roleCodeSchema = z.enum(ROLE_CODES)

/** A team space of the caller (result.orgList item of org-info). */
export const orgSpaceSchema = z.looseObject({
  id: idSchema,
  orgNo: z.string(),
  name: z.string(),
  orgFeeType: z.literal([0, 1, 2, 3]),
  roleId: z.literal([1, 2, 3, 4, 5, 6]),
  roleCode: roleCodeSchema,
  roleName: z.string(),
  valid: z.boolean(),
  invalidTime: z.number(),
})

/** Result of org-info. */
export const orgInfoResultSchema = z.looseObject({ orgList: z.array(orgSpaceSchema) })

/** A saved asset (result.materials item of material-save). */
export const savedMaterialSchema = z.looseObject({
  id: idSchema,
  key: z.string(),
  name: z.string(),
  accessUrl: z.string(),
})

/** Result of material-save. */
export const materialSaveResultSchema = z.looseObject({ materials: z.array(savedMaterialSchema) })

// Inputs: strict, checked before anything is sent.

function text() {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
}

function count(unit: string) {
  return z
    .int({ error: (issue) => (issue.input === undefined ? 'is required' : `must be an integer (${unit})`) })
    .nonnegative(`must not be negative (${unit})`)
}

/** An uploaded object to register as an asset. `folderId` 0 (or omitted) is the root folder. */
export const materialInputSchema = z.strictObject({
  key: text(),
  folderId: idSchema.exactOptional(),
  name: text(),
  // A file without an extension has an empty one.
  extension: z.string({
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
  }),
  size: count('bytes'),
  width: count('pixels').exactOptional(),
  height: count('pixels').exactOptional(),
  description: z.string().exactOptional(),
  tags: z.array(z.string()).exactOptional(),
  link: z.string().exactOptional(),
})

/** `open.materials.save(...)`: no `orgId` means the personal space. Any number of materials (batched). */
export const materialSaveInputSchema = z.strictObject({
  orgId: idSchema.exactOptional(),
  materials: z
    .array(materialInputSchema, { error: 'must be an array of materials' })
    .min(1, 'must hold at least one material'),
})

/**
 * A material-save request body as the service may receive it: the top-level form (what the SDK
 * sends) or the `{param: {...}}` form of the documentation's field table (docs/service/material-save.md). Output: the top-level form.
 * Error paths of the `param` form are relative to `param`.
 */
export const materialSaveRequestSchema = z.preprocess(
  (body) =>
    typeof body === 'object' && body !== null && 'param' in body && !('materials' in body)
      ? body.param
      : body,
  materialSaveInputSchema.extend({
    materials: materialSaveInputSchema.shape.materials.max(
      MAX_MATERIALS_PER_SAVE,
      `must hold at most ${MAX_MATERIALS_PER_SAVE} materials per request`,
    ),
  }),
)
