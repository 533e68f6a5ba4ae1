import { explain } from '../output.ts'
import { type Finding, fail, messageOf, ok, skip, warn } from './finding.ts'
import type { ApiKeyCheck } from './service.ts'

const CHECK = 'event-types'

/**
 * The subscription capability: the event-types call answered and offers the asset events this
 * SDK knows (core's `ASSET_EVENT_TYPES`). Codes it does not know are listed, never a failure.
 */
export async function eventTypesFinding(key: ApiKeyCheck): Promise<Finding> {
  if (key.refusal !== undefined) {
    const { ServicePermissionError } = await import('@service-sdk/core')
    const capability = ServicePermissionError.isInstance(key.refusal) && key.refusal.reason === 'capability'
    return fail(
      CHECK,
      `event-types refused: ${messageOf(key.refusal)}`,
      capability
        ? "The API key's team lacks asset-event subscriptions: the team's owner enables the capability with the service"
        : ((await explain(key.refusal)).hint ?? 'Check the API key and its team with the service'),
    )
  }
  if (!key.types) return skip(CHECK, 'not checked: needs an accepted subscription API key (see api-key)')
  const { ASSET_EVENT_TYPES } = await import('@service-sdk/core/schemas')
  const offered = key.types.map((t) => t.code)
  const absent = ASSET_EVENT_TYPES.filter((code) => !offered.includes(code))
  const unknown = offered.filter((code) => !(ASSET_EVENT_TYPES as readonly string[]).includes(code))
  const subscribed = key.types.filter((t) => t.subscribed).map((t) => t.code)
  const detail = [
    `${offered.length} offered`,
    subscribed.length ? `subscribed: ${subscribed.join(', ')}` : 'none subscribed by this key',
    ...(unknown.length ? [`also offered (unknown to this SDK): ${unknown.join(', ')}`] : []),
  ]
  if (absent.length === ASSET_EVENT_TYPES.length)
    return fail(
      CHECK,
      ['no known event type is offered', ...detail].join('; '),
      "Asset events cannot be subscribed to with this key: the team's owner enables the capability with the service",
    )
  if (absent.length > 0)
    return warn(
      CHECK,
      [`not offered: ${absent.join(', ')}`, ...detail].join('; '),
      'Those events cannot be subscribed to with this key; ask the service if you need them',
    )
  return ok(CHECK, detail.join('; '))
}
