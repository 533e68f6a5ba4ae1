/** The fields every asset event carries besides its event-specific object. */
const ENVELOPE = new Set(['eventId', 'eventType', 'eventTime', 'eventTimeMs'])

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Where an asset event's event-specific object is: the field `payload` (what the live service
 * sends: docs/service/subscriptions.md), or, when the body has no `payload`, its one other
 * object-valued field (the service's table names the object after its brand, which a tenant might
 * send). `undefined` when there is neither, or several candidates (nothing to choose between).
 */
export function eventObjectField(body: Record<string, unknown>): string | undefined {
  if (body.payload !== undefined) return 'payload'
  let found: string | undefined
  for (const [name, value] of Object.entries(body)) {
    if (ENVELOPE.has(name) || !isObject(value)) continue
    if (found !== undefined) return undefined
    found = name
  }
  return found
}

/** The event-specific object of an asset event, found by `eventObjectField`; `{}` when none. */
export function eventObjectOf(body: Record<string, unknown>): Record<string, unknown> {
  const field = eventObjectField(body)
  const value = field === undefined ? undefined : body[field]
  return isObject(value) ? value : {}
}
