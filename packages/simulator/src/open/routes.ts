import { Hono } from 'hono'
import { openError, openOk } from '../http/envelopes.ts'
import { readJson } from '../http/request-body.ts'
import { SimError } from '../http/sim-error.ts'
import type { SimContext } from '../model/context.ts'
import type { ApiKey, OpenToken } from '../model/state.ts'
import { ASSET_EVENTS, FOLDER_CONTENT_UPDATE } from './event-types.ts'
import { folderVisibleTo, parseIdList } from './folders.ts'
import { saveMaterials } from './materials.ts'
import { orgList } from './orgs.ts'
import { issueCredential } from './sts.ts'

const CAPABILITY_OFF = 'The team has not enabled the asset-event subscription capability'

type OpenEnv = { Variables: { caller: OpenToken } }
type SubscriptionEnv = { Variables: { apiKey: ApiKey } }

function onError(sim: SimContext) {
  return (error: Error) => {
    if (error instanceof SimError) return openError(error.kind, error.message)
    sim.logger.error('open API failure', { error })
    return openError('internal', 'System error')
  }
}

/** Area B, token part: POST /open-api/standard/call/service/{sts-tmp, org-info, material-save}. */
export function openApiRoutes(sim: SimContext): Hono<OpenEnv> {
  const app = new Hono<OpenEnv>()
  app.onError(onError(sim))
  app.use('*', async (c, next) => {
    // `Authorization: <TOKEN_TYPE> <TOKEN>`, both parts checked.
    const [type, value, ...rest] = (c.req.header('authorization') ?? '').trim().split(/\s+/)
    if (!type || !value || rest.length > 0) {
      return openError('unauthorized', 'Unauthorized: Authorization must be "<TOKEN_TYPE> <TOKEN>"')
    }
    const caller = sim.state.data.openTokens.find((t) => t.type === type && t.value === value)
    if (!caller) return openError('unauthorized', 'Unauthorized: invalid token')
    c.set('caller', caller)
    await next()
  })

  app.post('/sts-tmp', async (c) => {
    await readJson(c.req.raw, 'open', { optional: true })
    return openOk(issueCredential(sim, c.get('caller').userId), sim.quirks.successCode)
  })

  app.post('/org-info', async (c) => {
    await readJson(c.req.raw, 'open', { optional: true })
    return openOk({ orgList: orgList(sim, c.get('caller').userId) }, sim.quirks.successCode)
  })

  app.post('/material-save', async (c) => {
    const body = await readJson(c.req.raw, 'open')
    const origin = new URL(c.req.url).origin
    const saved = await saveMaterials(sim, c.get('caller').userId, body, origin)
    return openOk(
      {
        materials: saved.map((m) => ({ id: BigInt(m.id), key: m.key, name: m.name, accessUrl: m.accessUrl })),
      },
      sim.quirks.successCode,
    )
  })
  return app
}

/** Area B, API-key part: /api/service/{folder-subscribe, material-automation-event-types, material-automation-subscribe}. */
export function subscriptionRoutes(sim: SimContext): Hono<SubscriptionEnv> {
  const app = new Hono<SubscriptionEnv>()
  app.onError(onError(sim))
  app.use('*', async (c, next) => {
    const key = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (!key) return openError('unauthorized', 'Unauthorized: API Key is required')
    const apiKey = sim.state.data.apiKeys.find((k) => k.key === key)
    if (!apiKey) return openError('unauthorized', 'Unauthorized: invalid API Key')
    c.set('apiKey', apiKey)
    await next()
  })

  app.post('/folder-subscribe', async (c) => {
    const apiKey = c.get('apiKey')
    const body = await readJson(c.req.raw, 'open')
    const folderIds = parseIdList(body.folderIds, 'folderIds')
    const callbackUrl = callbackUrlOf(body.callbackUrl)
    const eventType = body.eventType ?? FOLDER_CONTENT_UPDATE
    if (eventType !== FOLDER_CONTENT_UPDATE)
      throw new SimError('unsupported', `Unsupported eventType: ${String(eventType)}`)
    const operation = operationOf(body.operation)
    for (const id of folderIds) {
      if (!folderVisibleTo(sim, id, apiKey.userId)) throw new SimError('not_found', `Folder not found: ${id}`)
    }
    const subs = sim.state.data
    const same = (s: (typeof subs.folderSubscriptions)[number], id: string) =>
      s.apiKey === apiKey.key &&
      s.folderId === id &&
      s.callbackUrl === callbackUrl &&
      s.eventType === eventType
    for (const folderId of folderIds) {
      subs.folderSubscriptions = subs.folderSubscriptions.filter((s) => !same(s, folderId))
      if (operation === 'ADD')
        subs.folderSubscriptions.push({ apiKey: apiKey.key, folderId, callbackUrl, eventType })
    }
    sim.state.commit()
    return openOk(true, sim.quirks.successCode)
  })

  app.get('/material-automation-event-types', (c) => {
    const apiKey = c.get('apiKey')
    if (sim.quirks.eventTypesNeedCapability && !sim.state.team(apiKey.teamId)?.assetEvents)
      throw new SimError('forbidden', CAPABILITY_OFF)
    const list = ASSET_EVENTS.map((e) => ({
      code: e.code,
      desc: e.desc,
      needsConfig: false,
      subscribed: sim.state.data.eventSubscriptions.some(
        (s) => s.apiKey === apiKey.key && s.eventType === e.code,
      ),
    }))
    return sim.quirks.bareEventTypes ? Response.json(list) : openOk(list, sim.quirks.successCode)
  })

  app.post('/material-automation-subscribe', async (c) => {
    const apiKey = c.get('apiKey')
    const body = await readJson(c.req.raw, 'open')
    const callbackUrl = callbackUrlOf(body.callbackUrl)
    const eventTypes = body.eventTypes
    if (!Array.isArray(eventTypes) || eventTypes.length === 0) {
      throw new SimError('bad_request', 'eventTypes must be a non-empty list')
    }
    for (const type of eventTypes) {
      if (!ASSET_EVENTS.some((e) => e.code === type))
        throw new SimError('bad_request', `Unsupported event type: ${String(type)}`)
    }
    const operation = operationOf(body.operation)
    const team = sim.state.team(apiKey.teamId)
    if (operation === 'ADD' && !team?.assetEvents) {
      throw new SimError('forbidden', CAPABILITY_OFF)
    }
    const data = sim.state.data
    for (const eventType of eventTypes as string[]) {
      data.eventSubscriptions = data.eventSubscriptions.filter(
        (s) => !(s.apiKey === apiKey.key && s.callbackUrl === callbackUrl && s.eventType === eventType),
      )
      if (operation === 'ADD') data.eventSubscriptions.push({ apiKey: apiKey.key, callbackUrl, eventType })
    }
    sim.state.commit()
    return openOk(true, sim.quirks.successCode)
  })
  return app
}

function callbackUrlOf(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new SimError('bad_request', 'callbackUrl must be an http(s) URL')
  }
  return value
}

function operationOf(value: unknown): 'ADD' | 'DELETE' {
  if (value === undefined) return 'ADD'
  if (value === 'ADD' || value === 'DELETE') return value
  throw new SimError('bad_request', `operation must be ADD or DELETE, not ${String(value)}`)
}
