import type { Logger } from '@service-sdk/core'
import { createFaults, seededRandom } from '../../src/control/faults.ts'
import type { MaterialChanges, SavedMaterial, SimContext, SimEvents } from '../../src/model/context.ts'
import { defaultSeed } from '../../src/model/seed.ts'
import { BUCKET, createState, type Id, type Material, type SpaceKey } from '../../src/model/state.ts'
import { accessUrlOf } from '../../src/open/materials.ts'
import { memoryObjectStore } from '../../src/oss/index.ts'
import { createEvents } from '../../src/webhooks/events.ts'
import { createWebhookSender, type WebhookSender } from '../../src/webhooks/sender/sender.ts'
import { type Received, startReceiver, type TestReceiver } from './receiver.ts'

/** Seed ids used by the tests (see src/model/seed.ts). */
export const ADA = '1673603133161799680'
export const GRACE = '1673603133161799681'
export const ACME = '1001'
export const GLOBEX = '1002'
/** Acme: Campaigns (…001) > 2026 Autumn (…003) > Drafts (…004); Brand assets (…005). */
export const ACME_CAMPAIGNS = '1753946835010000001'
export const ACME_AUTUMN = '1753946835010000003'
export const ACME_DRAFTS = '1753946835010000004'
export const ACME_BRAND = '1753946835010000005'
export const GLOBEX_CAMPAIGNS = '1753946835020000001'
export const MY_CAMPAIGNS = '1753946835000000001'
export const NOW = 1753946835010
export const ORIGIN = 'http://sim.test'

export interface TestSim {
  sim: SimContext
  sender: WebhookSender
  events: SimEvents & { changes: MaterialChanges }
  receiver: TestReceiver
  log: Array<{ message: string; error?: unknown }>
  /** Save assets as material-save does, and emit their events. */
  save(
    items: Array<Partial<Material> & { space: SpaceKey; folderId?: Id; name?: string }>,
    userId?: Id,
  ): SavedMaterial[]
  /** Subscribe `path` of the receiver to a folder, as folder-subscribe stores it. */
  subscribeFolder(folderId: Id, path: string, apiKey?: string): void
  /** Subscribe `path` of the receiver to asset events with an API key (the seed's caller key by default). */
  subscribeEvents(eventTypes: string[], path: string, apiKey?: string): void
  /** Add an API key scoped to a team, for routing tests. */
  addApiKey(key: string, userId: Id, teamId: Id): void
  /** Bodies that arrived at `path`, after every delivery settled. */
  at(path: string): Promise<Received[]>
  close(): Promise<void>
}

/** A SimContext from the default seed with no object store, events wired to a real sender and receiver. */
export async function createTestSim(): Promise<TestSim> {
  const log: TestSim['log'] = []
  const write = (message: string, fields?: Record<string, unknown>) =>
    void log.push({ message, error: fields?.error })
  const logger: Logger = { debug: write, info: write, warn: write, error: write }
  const state = createState(defaultSeed(), { now: NOW })
  const sender = createWebhookSender(
    { retry: { initialDelayMs: 5 }, timeoutMs: 5_000 },
    { logger, random: seededRandom(7) },
  )
  const sim: SimContext = {
    state,
    // Only a confirmed pending intake stores bytes.
    store: memoryObjectStore(),
    faults: createFaults(),
    events: { materialsSaved: () => {} },
    quirks: { successCode: '0', bareEventTypes: false },
    now: () => NOW,
    ossEndpoint: () => '127.0.0.1:1',
    publicOrigin: () => 'http://sim.test',
    stsTtlMs: 3_600_000,
    logger,
  }
  const events = createEvents(sim, sender, seededRandom(7))
  sim.events = events
  const receiver = await startReceiver()
  const callerKey = state.data.apiKeys[0]?.key as string

  return {
    sim,
    sender,
    events,
    receiver,
    log,
    save(items, userId = ADA) {
      const saved = items.map((item, i): SavedMaterial => {
        const material: Material = {
          key: `upload/${userId}/file-${i}`,
          bucket: BUCKET,
          name: `file-${i}`,
          extension: 'png',
          size: 1024,
          folderId: '0',
          ownerUserId: userId,
          createUserId: userId,
          ...item,
          id: state.nextId(),
          createdAt: NOW,
        }
        state.data.materials.push(material)
        return { ...material, accessUrl: accessUrlOf(ORIGIN, material) }
      })
      state.commit()
      sim.events.materialsSaved(saved, userId)
      return saved
    },
    subscribeFolder(folderId, path, apiKey = callerKey) {
      state.data.folderSubscriptions.push({
        apiKey,
        folderId,
        callbackUrl: receiver.url + path,
        eventType: 'FOLDER_CONTENT_UPDATE',
      })
    },
    subscribeEvents(eventTypes, path, apiKey = callerKey) {
      for (const eventType of eventTypes) {
        state.data.eventSubscriptions.push({ apiKey, callbackUrl: receiver.url + path, eventType })
      }
    },
    addApiKey(key, userId, teamId) {
      state.data.apiKeys.push({ key, userId, teamId })
    },
    async at(path) {
      await sender.idle()
      return receiver.received.filter((r) => r.path === path)
    },
    async close() {
      sender.stop()
      await receiver.close()
    },
  }
}
