/**
 * How a folder callback's body is varied to look like what the live service has sent
 * (docs/service-behaviour.md), and how held deliveries are reordered.
 */

export type EventTimeFormat = 'epoch' | 'iso' | 'mixed'

/** MaterialCallbackDTO fields the live sample sends as null (spec: `MaterialCallbackAsset`). */
export const NULLABLE_ASSET_FIELDS = [
  'downloadUrl',
  'link',
  'duration',
  'size',
  'width',
  'height',
  'description',
  'score',
] as const

/** The live service runs in UTC+8; an offset other than `Z` catches receivers that ignore offsets. */
const ISO_OFFSET_MINUTES = 8 * 60

/** `2025-07-31T15:27:15.010+08:00` for an epoch in ms. */
export function isoWithOffset(epochMs: number, offsetMinutes = ISO_OFFSET_MINUTES): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 23)
  const abs = Math.abs(offsetMinutes)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A copy of a folder callback body with its eventTime in the requested form and, when
 * `nullHeavy`, every nullable asset field null. The body is built with an epoch-ms eventTime.
 */
export function varyFolderBody(body: unknown, form: 'epoch' | 'iso', nullHeavy: boolean): unknown {
  if (!isRecord(body)) return body
  const out: Record<string, unknown> = { ...body }
  if (form === 'iso' && typeof body.eventTime === 'string' && /^\d+$/.test(body.eventTime)) {
    out.eventTime = isoWithOffset(Number(body.eventTime))
  }
  if (nullHeavy && Array.isArray(body.assets)) {
    out.assets = body.assets.map((asset: unknown) =>
      isRecord(asset)
        ? { ...asset, ...Object.fromEntries(NULLABLE_ASSET_FIELDS.map((f) => [f, null])) }
        : asset,
    )
  }
  return out
}

/**
 * Sattolo's shuffle: a random cyclic permutation, so every item leaves its place (for two or
 * more items) and a reorder fault is always observable.
 */
export function derange<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * i)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}
