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
  type ServicePaths,
  ServiceValidationError,
  type UploadCredential,
  uploadCredentialSchema,
} from '@service-sdk/core'
import { parseInput, type Transport } from '@service-sdk/core/internal'
import { z } from 'zod'
import { MaterialSaveError } from './errors.ts'
import { orgIdForSave } from './org-id.ts'

const CALL = '/open-api/standard/call/service'

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
  open: Transport<ServicePaths>,
  subscription: Transport<ServicePaths> | undefined,
  options: { maxMaterialsPerSave: number; materialSaveForm: MaterialSaveForm },
) {
  const hints = saveHints(options.materialSaveForm)
  const requireSubscription = (): Transport<ServicePaths> => {
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
        method: 'POST',
        path: `${CALL}/material-save`,
        // Each call creates assets: never repeated once it may have been acted on.
        idempotent: false,
        schema: materialSaveResultSchema,
        hints,
        call: (init) => open.client.POST(`${CALL}/material-save`, { ...init, body }),
      },
      call,
    )
    return result.materials
  }

  type SubscriptionPath = '/api/service/folder-subscribe' | '/api/service/material-automation-subscribe'

  /**
   * ADD or DELETE of a subscription: idempotent (the same binding twice is one binding). The
   * service answers a Boolean; `false` means nothing was applied, which is thrown.
   */
  async function changeSubscription(path: SubscriptionPath, body: object, call?: CallOptions): Promise<void> {
    const transport = requireSubscription()
    const applied = await transport.send<boolean>(
      {
        method: 'POST',
        path,
        idempotent: true,
        schema: z.boolean(),
        call: (init) => transport.client.POST(path, { ...init, body: body as never }),
      },
      call,
    )
    if (applied === true) return
    throw new ServiceApiError({
      status: 200,
      code: 'not_applied',
      message: `The service answered false to ${path}: the operation was not applied`,
      area: 'subscription',
      method: 'POST',
      path,
      isRetryable: false,
    })
  }

  const subscribeFolders = async (
    input: FolderSubscribeParams,
    operation: 'ADD' | 'DELETE',
    call?: CallOptions,
  ) =>
    changeSubscription(
      '/api/service/folder-subscribe',
      { ...parseInput(folderSubscribeInputSchema, input, 'folder subscription'), operation },
      call,
    )

  const subscribeEvents = async (
    input: EventSubscribeParams,
    operation: 'ADD' | 'DELETE',
    call?: CallOptions,
  ) =>
    changeSubscription(
      '/api/service/material-automation-subscribe',
      { ...parseInput(eventSubscribeInputSchema, input, 'event subscription'), operation },
      call,
    )

  return {
    /** Temporary upload credentials (sts-tmp). */
    credentials: (call?: CallOptions) =>
      open.send<UploadCredential>(
        {
          method: 'POST',
          path: `${CALL}/sts-tmp`,
          // Each call issues fresh credentials; a repeat only issues another set.
          idempotent: true,
          schema: uploadCredentialSchema,
          call: (init) =>
            open.client.POST(`${CALL}/sts-tmp`, { ...init, headers: { 'Content-Type': 'application/json' } }),
        },
        call,
      ),

    /** The caller's team spaces with their roles and validity (org-info). */
    orgs: async (call?: CallOptions) =>
      (
        await open.send<{ orgList: OrgSpace[] }>(
          {
            method: 'POST',
            path: `${CALL}/org-info`,
            idempotent: true,
            schema: orgInfoResultSchema,
            call: (init) => open.client.POST(`${CALL}/org-info`, init),
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
        const path = '/api/service/material-automation-event-types'
        return transport.send<EventTypeEntry[]>(
          {
            method: 'GET',
            path,
            idempotent: true,
            // The interface does not say whether this list comes wrapped: both are accepted.
            allowBare: true,
            schema: eventTypeListSchema,
            call: (init) => transport.client.GET(path, init),
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
