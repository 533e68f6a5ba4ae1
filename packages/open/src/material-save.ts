import {
  type CallOptions,
  type MaterialInput,
  type MaterialSaveParams,
  type SavedMaterial,
  ServiceResponseError,
} from '@service-sdk/core'
import { type ErrorHints, operation, parseInput, type Transport } from '@service-sdk/core/internal'
import type { MaterialSaveInput } from '@service-sdk/core/schemas'
import { MaterialSaveError } from './errors.ts'
import { loadSchemas } from './load-schemas.ts'
import { materialSaveOrgId } from './org-id.ts'

const MATERIAL_SAVE = operation('POST', '/open-api/standard/call/service/material-save')

/**
 * The two material-save body forms the spec describes: `top-level` `{orgId?, materials}` and
 * `param` `{param: {orgId?, materials}}`. Which one the service reads is not documented
 * (docs/service/material-save.md).
 */
export type MaterialSaveForm = 'top-level' | 'param'

export interface MaterialSaver {
  open: Transport
  maxMaterialsPerSave: number
  form: MaterialSaveForm
  hints: ErrorHints
}

const OTHER_FORM: Record<MaterialSaveForm, MaterialSaveForm> = { 'top-level': 'param', param: 'top-level' }

// A service that reads the other form finds no materials in the body, and says so.
export function saveHints(form: MaterialSaveForm): ErrorHints {
  return {
    invalid: `Check the materials. If the service says materials are missing or empty although they were sent, it reads the other body form: create the open client with materialSaveForm: '${OTHER_FORM[form]}' (now '${form}').`,
  }
}

/**
 * Registers uploaded objects as assets, in batches of `maxMaterialsPerSave` one after another.
 * A later batch that fails throws a `MaterialSaveError` listing what was saved and what was not.
 */
export async function saveMaterials(
  saver: MaterialSaver,
  input: MaterialSaveParams,
  call?: CallOptions,
): Promise<SavedMaterial[]> {
  const { materialSaveInputSchema } = await loadSchemas()
  return saveCheckedMaterials(saver, parseInput(materialSaveInputSchema, input, 'material-save input'), call)
}

/**
 * `saveMaterials` of an input checked already: the uploader's, made from options it checked once
 * per call (`materialOf`): zod's check of each material again was about 12% of the bytes
 * allocated per 64 KiB file of `uploadMany` (sampled with V8's heap profiler).
 */
export async function saveCheckedMaterials(
  saver: MaterialSaver,
  input: MaterialSaveInput,
  call?: CallOptions,
): Promise<SavedMaterial[]> {
  const { orgId, materials } = input
  const spaceId = materialSaveOrgId(orgId)
  const saved: SavedMaterial[] = []
  for (let start = 0; start < materials.length; start += saver.maxMaterialsPerSave) {
    const batch = materials.slice(start, start + saver.maxMaterialsPerSave)
    try {
      saved.push(...(await saveBatch(saver, spaceId, batch, call)))
    } catch (error) {
      if (saved.length === 0) throw error
      throw new MaterialSaveError(saved, materials.slice(start), error)
    }
  }
  return saved
}

async function saveBatch(
  saver: MaterialSaver,
  orgId: string | undefined,
  materials: MaterialInput[],
  call?: CallOptions,
): Promise<SavedMaterial[]> {
  const schema = saver.open.validatesResponses ? (await loadSchemas()).materialSaveResultSchema : undefined
  const fields = orgId === undefined ? { materials } : { orgId, materials }
  const result = await saver.open.send<{ materials: SavedMaterial[] }>(
    {
      operation: MATERIAL_SAVE,
      body: saver.form === 'param' ? { param: fields } : fields,
      // Each call creates assets: never repeated once it may have been acted on.
      idempotent: false,
      ...(schema ? { schema } : {}),
      hints: saver.hints,
    },
    call,
  )
  const saved = (result as { materials?: unknown } | undefined)?.materials
  if (Array.isArray(saved)) return saved as SavedMaterial[]
  throw new ServiceResponseError({
    status: 200,
    code: 'invalid_response',
    area: 'open',
    method: MATERIAL_SAVE.method,
    path: MATERIAL_SAVE.path,
    message: 'material-save answered without the saved materials: check the space before saving again.',
    isRetryable: false,
  })
}
