import {
  type CallOptions,
  type EventSubscribeParams,
  type EventTypeEntry,
  eventSubscribeInputSchema,
  eventTypeEntrySchema,
  type FolderSubscribeParams,
  folderSubscribeInputSchema,
  type MaterialInput,
  type MaterialSaveParams,
  materialSaveInputSchema,
  materialSaveResultSchema,
  type OrgSpace,
  orgInfoResultSchema,
  type SavedMaterial,
  ServiceApiError,
  ServiceValidationError,
  type UploadCredential,
  uploadCredentialSchema,
} from '@service-sdk/core'
import { type Operation, operation, parseInput, type Transport } from '@service-sdk/core/internal'
import { z } from 'zod'
import { MaterialSaveError } from './errors.ts'
import { orgIdForSave } from './org-id.ts'

const MATERIAL_SAVE = operation('POST', '/open-api/standard/call/service/material-save')
const STS_TMP = operation('POST', '/open-api/standard/call/service/sts-tmp')
const ORG_INFO = operation('POST', '/open-api/standard/call/service/org-info')
const FOLDER_SUBSCRIBE = operation('POST', '/api/service/folder-subscribe')
const EVENT_SUBSCRIBE = operation('POST', '/api/service/material-automation-subscribe')
const EVENT_TYPES = operation('GET', '/api/service/material-automation-event-types')

/**
 * The two material-save body forms the interface shows: `top-level` `{orgId?, materials}` (its
 * sample) and `param` `{param: {orgId?, materials}}` (its field table). Which one the service
 * accepts is not documented.
 */
export type MaterialSaveForm = 'top-level' | 'param'

const OTHER_FORM: Record<MaterialSaveForm, MaterialSaveForm> = { 'top-level': 'param', param: 'top-level' }

// A service that reads the other form finds no materials in the body, and says so.
function saveHints(form: MaterialSaveForm) {
  return {
    invalid: `Check the materials. If the service says materials are missing or empty although they were sent, it reads the other body form: create the open client with materialSaveForm: '${OTHER_FORM[form]}' (now '${form}').`,
  }
}
const eventTypeListSchema = z.array(eventTypeEntrySchema)

/** The open API's calls (area B), over the token transport and the API-key transport. */
export function createOpenApi(
  open: Transport,
  subscription: Transport | undefined,
  options: { maxMaterialsPerSave: number; materialSaveForm: MaterialSaveForm },
) {
  const hints = saveHints(options.materialSaveForm)
  const requireSubscription = (): Transport => {
    if (subscription) return subscription
    throw new ServiceValidationError('open client options', [
      { path: 'apiKey', message: 'is required for the subscription endpoints (folders.*, events.*)' },
    ])
  }

  async function saveBatch(orgId: string | undefined, materials: MaterialInput[], call?: CallOptions) {
    const fields = orgId === undefined ? { materials } : { orgId, materials }
    const body = options.materialSaveForm === 'param' ? { param: fields } : fields
    const result = await open.send<{ materials: SavedMaterial[] }>(
      {
        operation: MATERIAL_SAVE,
        body,
        // Each call creates assets: never repeated once it may have been acted on.
        idempotent: false,
        schema: materialSaveResultSchema,
        hints,
      },
      call,
    )
    return result.materials
  }

  /**
   * ADD or DELETE of a subscription: idempotent (the same binding twice is one binding). The
   * service answers a Boolean; `false` means nothing was applied, which is thrown.
   */
  async function changeSubscription(subscribe: Operation, body: object, call?: CallOptions): Promise<void> {
    const transport = requireSubscription()
    const applied = await transport.send<boolean>(
      {
        operation: subscribe,
        body,
        idempotent: true,
        schema: z.boolean(),
      },
      call,
    )
    if (applied === true) return
    throw new ServiceApiError({
      status: 200,
      code: 'not_applied',
      message: `The service answered false to ${subscribe.path}: the operation was not applied`,
      area: 'subscription',
      method: subscribe.method,
      path: subscribe.path,
      isRetryable: false,
    })
  }

  const subscribeFolders = async (
    input: FolderSubscribeParams,
    operation: 'ADD' | 'DELETE',
    call?: CallOptions,
  ) =>
    changeSubscription(
      FOLDER_SUBSCRIBE,
      { ...parseInput(folderSubscribeInputSchema, input, 'folder subscription'), operation },
      call,
    )

  const subscribeEvents = async (
    input: EventSubscribeParams,
    operation: 'ADD' | 'DELETE',
    call?: CallOptions,
  ) =>
    changeSubscription(
      EVENT_SUBSCRIBE,
      { ...parseInput(eventSubscribeInputSchema, input, 'event subscription'), operation },
      call,
    )

  return {
    /** Temporary upload credentials (sts-tmp). */
    credentials: (call?: CallOptions) =>
      open.send<UploadCredential>(
        {
          operation: STS_TMP,
          headers: { 'Content-Type': 'application/json' },
          // Each call issues fresh credentials; a repeat only issues another set.
          idempotent: true,
          schema: uploadCredentialSchema,
        },
        call,
      ),

    /** The caller's team spaces with their roles and validity (org-info). */
    orgs: async (call?: CallOptions) =>
      (
        await open.send<{ orgList: OrgSpace[] }>(
          {
            operation: ORG_INFO,
            idempotent: true,
            schema: orgInfoResultSchema,
          },
          call,
        )
      ).orgList,

    materials: {
      /**
       * Register uploaded objects as assets. `orgId` omitted (or the selector's 1) saves into the
       * personal space. Long lists go out in batches of `maxMaterialsPerSave`, one after another.
       */
      async save(input: MaterialSaveParams, call?: CallOptions): Promise<SavedMaterial[]> {
        const { orgId, materials } = parseInput(materialSaveInputSchema, input, 'material-save input')
        const spaceId = orgIdForSave(orgId)
        const saved: SavedMaterial[] = []
        for (let start = 0; start < materials.length; start += options.maxMaterialsPerSave) {
          const batch = materials.slice(start, start + options.maxMaterialsPerSave)
          try {
            saved.push(...(await saveBatch(spaceId, batch, call)))
          } catch (error) {
            if (saved.length === 0) throw error
            throw new MaterialSaveError(saved, materials.slice(start), error)
          }
        }
        return saved
      },
    },

    folders: {
      /** Send FOLDER_CONTENT_UPDATE callbacks for these folders to `callbackUrl`. */
      subscribe: (input: FolderSubscribeParams, call?: CallOptions) => subscribeFolders(input, 'ADD', call),
      /** Stop the callbacks of this binding. */
      unsubscribe: (input: FolderSubscribeParams, call?: CallOptions) =>
        subscribeFolders(input, 'DELETE', call),
    },

    events: {
      /** The asset events on offer, each with whether this API key subscribes to it. */
      types: async (call?: CallOptions) => {
        const transport = requireSubscription()
        return transport.send<EventTypeEntry[]>(
          {
            operation: EVENT_TYPES,
            idempotent: true,
            // The interface does not say whether this list comes wrapped: both are accepted.
            allowBare: true,
            schema: eventTypeListSchema,
          },
          call,
        )
      },
      /** Subscribe `callbackUrl` to one or more asset events (fails when the team lacks the capability). */
      subscribe: (input: EventSubscribeParams, call?: CallOptions) => subscribeEvents(input, 'ADD', call),
      unsubscribe: (input: EventSubscribeParams, call?: CallOptions) =>
        subscribeEvents(input, 'DELETE', call),
    },
  }
}

export type OpenApi = ReturnType<typeof createOpenApi>
