import {
  type CallOptions,
  type EventSubscribeParams,
  type EventTypeEntry,
  type FolderSubscribeParams,
  type MaterialSaveParams,
  type OrgSpace,
  type SavedMaterial,
  ServiceResponseError,
  type UploadCredential,
} from '@service-sdk/core'
import { operation, type Transport } from '@service-sdk/core/internal'
import type { MaterialSaveInput } from '@service-sdk/core/schemas'
import { loadSchemas } from './load-schemas.ts'
import {
  type MaterialSaveForm,
  type MaterialSaver,
  saveCheckedMaterials,
  saveHints,
  saveMaterials,
} from './material-save.ts'
import { changeEventSubscription, changeFolderSubscription, eventTypes } from './subscriptions.ts'

export type { MaterialSaveForm } from './material-save.ts'

const STS_TMP = operation('POST', '/open-api/standard/call/service/sts-tmp')
const ORG_INFO = operation('POST', '/open-api/standard/call/service/org-info')

/** The open API's calls (area B). */
export interface OpenApi {
  /** Temporary upload credentials (sts-tmp). */
  credentials(call?: CallOptions): Promise<UploadCredential>
  /** The caller's team spaces with their roles and validity (org-info). */
  orgs(call?: CallOptions): Promise<OrgSpace[]>
  materials: {
    /**
     * Register uploaded objects as assets. `orgId` omitted (or the selector's 1) saves into the
     * personal space. Long lists go out in batches of `maxMaterialsPerSave`, one after another.
     */
    save(input: MaterialSaveParams, call?: CallOptions): Promise<SavedMaterial[]>
  }
  folders: {
    /** Send FOLDER_CONTENT_UPDATE callbacks for these folders to `callbackUrl`. */
    subscribe(input: FolderSubscribeParams, call?: CallOptions): Promise<void>
    /** Stop the callbacks of this binding. */
    unsubscribe(input: FolderSubscribeParams, call?: CallOptions): Promise<void>
  }
  events: {
    /** The asset events on offer, each with whether this API key subscribes to it. */
    types(call?: CallOptions): Promise<EventTypeEntry[]>
    /** Subscribe `callbackUrl` to one or more asset events (fails when the team lacks the capability). */
    subscribe(input: EventSubscribeParams, call?: CallOptions): Promise<void>
    /** Stop delivering these asset events to `callbackUrl`. */
    unsubscribe(input: EventSubscribeParams, call?: CallOptions): Promise<void>
  }
}

type SaveChecked = (input: MaterialSaveInput, call?: CallOptions) => Promise<SavedMaterial[]>

/**
 * Each API's material-save of checked input (`saveCheckedMaterials`), kept off the public
 * `materials` object: the client spreads the API into what callers see.
 */
const checkedSaves = new WeakMap<OpenApi['materials'], SaveChecked>()

/**
 * The uploader's material-save: its materials were made from options it checked already, so they
 * are not checked again. An API not made by `createOpenApi` (a test's) gets `materials.save`.
 */
export function saveUploaded(
  api: OpenApi,
  input: MaterialSaveInput,
  call?: CallOptions,
): Promise<SavedMaterial[]> {
  const save = checkedSaves.get(api.materials)
  return save ? save(input, call) : api.materials.save(input, call)
}

/** The open API over the token transport and (with an API key) the subscription transport. */
export function createOpenApi(
  open: Transport,
  subscription: Transport | undefined,
  options: { maxMaterialsPerSave: number; materialSaveForm: MaterialSaveForm },
): OpenApi {
  const saver: MaterialSaver = {
    open,
    maxMaterialsPerSave: options.maxMaterialsPerSave,
    form: options.materialSaveForm,
    hints: saveHints(options.materialSaveForm),
  }
  const materials: OpenApi['materials'] = { save: (input, call) => saveMaterials(saver, input, call) }
  checkedSaves.set(materials, (input, call) => saveCheckedMaterials(saver, input, call))
  return {
    credentials: (call) => credentials(open, call),
    orgs: (call) => orgs(open, call),
    materials,
    folders: {
      subscribe: (input, call) => changeFolderSubscription(subscription, input, 'ADD', call),
      unsubscribe: (input, call) => changeFolderSubscription(subscription, input, 'DELETE', call),
    },
    events: {
      types: (call) => eventTypes(subscription, call),
      subscribe: (input, call) => changeEventSubscription(subscription, input, 'ADD', call),
      unsubscribe: (input, call) => changeEventSubscription(subscription, input, 'DELETE', call),
    },
  }
}

async function credentials(open: Transport, call?: CallOptions): Promise<UploadCredential> {
  const { uploadCredentialSchema } = await loadSchemas()
  return open.send<UploadCredential>(
    {
      operation: STS_TMP,
      headers: { 'Content-Type': 'application/json' },
      // Each call issues fresh credentials; a repeat only issues another set.
      idempotent: true,
      schema: uploadCredentialSchema,
    },
    call,
  )
}

async function orgs(open: Transport, call?: CallOptions): Promise<OrgSpace[]> {
  // The schemas load only to check the answer (validateResponses): a page that uploads skips them.
  const schema = open.validatesResponses ? (await loadSchemas()).orgInfoResultSchema : undefined
  const result = await open.send<{ orgList: OrgSpace[] }>(
    { operation: ORG_INFO, idempotent: true, ...(schema ? { schema } : {}) },
    call,
  )
  const list = (result as { orgList?: unknown } | undefined)?.orgList
  if (Array.isArray(list)) return list as OrgSpace[]
  throw new ServiceResponseError({
    status: 200,
    code: 'invalid_response',
    area: 'open',
    method: ORG_INFO.method,
    path: ORG_INFO.path,
    message: 'org-info answered without a list of spaces (orgList).',
    isRetryable: false,
  })
}
