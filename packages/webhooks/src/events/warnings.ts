import { OPEN_ENUM_FIELDS } from '@service-sdk/core/schemas'

/**
 * Where a delivered event differs from what this SDK knows of the service: a value it does not
 * know (an enum value added since), or a field of another type than documented. The event is
 * delivered anyway (the service may change before the SDK does); `strict` refuses it instead.
 */
export interface SchemaWarning {
  /** Dotted path in the body (`payload.deleteAction`, `assets.0.source`); `(body)` for the whole. */
  path: string
  /** The value as sent (after the lossless parse: ids and large integers are strings). */
  value: unknown
  /** What this SDK expected there. */
  message: string
}

export function warning(path: readonly PropertyKey[], value: unknown, message: string): SchemaWarning {
  return { path: path.map(String).join('.') || '(body)', value, message }
}

/** The value at a path, or undefined. */
export function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** Values of the event's open enums that this SDK does not know (see OPEN_ENUM_FIELDS). */
export function unknownValues(eventType: string, event: unknown): SchemaWarning[] {
  const warnings: SchemaWarning[] = []
  for (const { path, known } of OPEN_ENUM_FIELDS[eventType] ?? []) {
    const visit = (value: unknown, at: number, where: PropertyKey[]): void => {
      if (at === path.length) {
        if (value !== undefined && value !== null && !known.includes(value as string | number)) {
          warnings.push(warning(where, value, `a value this SDK does not know (known: ${known.join(', ')})`))
        }
        return
      }
      const key = path[at]!
      if (key === '*') {
        if (Array.isArray(value)) {
          for (const [i, item] of value.entries()) visit(item, at + 1, [...where, i])
        }
      } else visit(valueAt(value, [key]), at + 1, [...where, key])
    }
    visit(event, 0, [])
  }
  return warnings
}

/**
 * Logs each (event type, field, value) once per process: a new enum value arrives with every
 * event of its kind, and one line says it. Remembers the last MAX_SEEN pairs.
 */
/** Logs an event's schema warnings (see `warningLog`). */
export type WarningLog = (eventType: string, key: string, warnings: readonly SchemaWarning[]) => void

export function warningLog(log: (message: string, fields: Record<string, unknown>) => void): WarningLog {
  const MAX_SEEN = 1000
  const seen = new Set<string>()
  return (eventType, key, warnings) => {
    for (const w of warnings) {
      const value = shown(w.value)
      // Array indexes apart, the same field: assets.0.source and assets.7.source are one.
      const id = `${eventType} ${w.path.replace(/\.\d+(?=\.|$)/g, '.*')} ${value}`
      if (seen.has(id)) continue
      if (seen.size >= MAX_SEEN) seen.delete(seen.values().next().value as string)
      seen.add(id)
      log(
        'webhooks: an event differs from the schema this SDK knows; delivered as sent (logged once per field and value)',
        {
          eventType,
          key,
          path: w.path,
          value,
          expected: w.message,
        },
      )
    }
  }
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}
