import type { AssetEventCode, FOLDER_CONTENT_UPDATE } from '../open/event-types.ts'

/**
 * The drift quirk: bodies as a newer (or differently configured) service may send them. The
 * interface allows all of it: receivers must not enforce a fixed schema, tolerate null fields,
 * and read absent fields as "no value". See docs/webhook-variants.md.
 *
 * Paths name fields: `a.b` walks into objects, `a[]` into each item of an array.
 */
interface Variations {
  /** Enum fields, and a value the spec does not list. */
  unknown: Array<[path: string, value: unknown]>
  /** Fields left out (those the spec marks optional, or that may be absent). */
  missing: string[]
  /** Containers sent as null. */
  nulls: string[]
  /** Fields the spec does not list, added to the objects at a path ('' is the body). */
  extra: Array<[path: string, key: string, value: unknown]>
}

type Kind = AssetEventCode | typeof FOLDER_CONTENT_UPDATE

/** A `__proto__`-named key: plain data to a careful receiver, a polluted prototype to a careless merge. */
const PROTO: [string, string, unknown] = ['', '__proto__', { polluted: true }]
/** An unknown field holding an integer beyond 2^53 (a raw JSON number). */
const TENANT: [string, string, unknown] = ['', 'tenantId', 1673603133161799999n]

const ASSET_EXTRA: Variations['extra'] = [
  PROTO,
  TENANT,
  ['payload', '__proto__', { polluted: true }],
  ['payload', 'requestSource', 'OPEN_API'],
]

const VARIATIONS: Record<Kind, Variations> = {
  FOLDER_CONTENT_UPDATE: {
    unknown: [
      ['type', 'MOVE'],
      ['assets[].source', 4],
    ],
    // eventTime: the table marks it required, yet receivers must tolerate its absence.
    missing: [
      'eventTime',
      'orgId',
      ...['link', 'duration', 'width', 'height', 'description', 'score', 'createUser'].map(
        (f) => `assets[].${f}`,
      ),
    ],
    nulls: ['assets[].parentIds', 'assets'],
    extra: [PROTO, TENANT, ['assets[]', 'tagNames', ['drift']]],
  },
  MATERIAL_INBOUND_COMPLETED: {
    unknown: [
      ['payload.source', 'API_IMPORT'],
      ['payload.uploadResults[].uploadStatus', 'PARTIAL_SUCCESS'],
    ],
    missing: ['payload.initiatorUserId', 'payload.uploadResults[].width', 'payload.uploadResults[].height'],
    nulls: ['payload.uploadResults', 'payload.materialIds', 'payload.pendingInboundIdToMaterialId'],
    extra: ASSET_EXTRA,
  },
  MATERIAL_ADDED_TO_FOLDER: {
    unknown: [],
    missing: [],
    nulls: ['payload.folderIds'],
    extra: ASSET_EXTRA,
  },
  MATERIAL_METADATA_UPDATED: {
    unknown: [['payload.changeType', 'STATUS']],
    missing: ['description', 'score', 'link', 'validityStatusName', 'daysToExpire', 'recordId'].map(
      (f) => `payload.materials[].${f}`,
    ),
    nulls: ['payload.materials'],
    extra: ASSET_EXTRA,
  },
  MATERIAL_VERSION_CHANGED: {
    unknown: [
      ['payload.action', 'MERGE'],
      ['payload.removeType', 'ARCHIVE'],
    ],
    missing: ['payload.version', 'payload.removeType', 'payload.versionGroupDissolved'],
    nulls: [],
    extra: ASSET_EXTRA,
  },
  MATERIAL_DELETED: {
    unknown: [['payload.deleteAction', 'ARCHIVE']],
    missing: ['payload.folderIds', 'payload.materials[].tagIds', 'payload.materials[].folderIds'],
    nulls: ['payload.materials[].tagNames', 'payload.materials', 'payload.folderIds'],
    extra: ASSET_EXTRA,
  },
}

/** The chance of the quirk switched off: nothing is drawn, nothing copied. */
const never = () => false

/** Whether a variation applies: with probability `setting` (`true` is 1), from `random`. */
export function driftChance(setting: boolean | number | undefined, random: () => number): () => boolean {
  const p = setting === true ? 1 : typeof setting === 'number' ? setting : 0
  if (!(p > 0)) return never
  return () => p >= 1 || random() < p
}

/** A drifted copy of `body` (each variation of its kind drawn with `chance`); `body` itself is unchanged. */
export function driftBody<T>(kind: Kind, body: T, chance: () => boolean): T {
  const v = VARIATIONS[kind]
  if (chance === never || !isRecord(body)) return body
  const out = structuredClone(body) as Record<string, unknown>
  for (const path of v.missing) for (const [o, key] of present(out, path)) if (chance()) delete o[key]
  for (const [path, value] of v.unknown)
    for (const [o, key] of present(out, path)) if (chance()) o[key] = structuredClone(value)
  for (const [path, key, value] of v.extra) {
    for (const o of objectsAt(out, path)) {
      // defineProperty: an own, enumerable `__proto__` key (assignment would set the prototype).
      if (chance())
        Object.defineProperty(o, key, {
          value: structuredClone(value),
          enumerable: true,
          writable: true,
          configurable: true,
        })
    }
  }
  for (const path of v.nulls) for (const [o, key] of present(out, path)) if (chance()) o[key] = null
  return out as T
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The objects a path leads to ('' is the root; `a[]` is each item of `a`). */
function objectsAt(root: Record<string, unknown>, path: string): Record<string, unknown>[] {
  let objects: unknown[] = [root]
  for (const segment of path === '' ? [] : path.split('.')) {
    const each = segment.endsWith('[]')
    const key = each ? segment.slice(0, -2) : segment
    objects = objects.flatMap((o) => {
      if (!isRecord(o) || !Object.hasOwn(o, key)) return []
      const value = o[key]
      return each ? (Array.isArray(value) ? value : []) : [value]
    })
  }
  return objects.filter(isRecord)
}

/** The (object, key) pairs where the last field of `path` is present. */
function present(root: Record<string, unknown>, path: string): Array<[Record<string, unknown>, string]> {
  const dot = path.lastIndexOf('.')
  const key = path.slice(dot + 1)
  return objectsAt(root, dot < 0 ? '' : path.slice(0, dot))
    .filter((o) => Object.hasOwn(o, key))
    .map((o) => [o, key])
}
