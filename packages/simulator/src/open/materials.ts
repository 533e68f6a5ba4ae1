import { MAX_MATERIALS_PER_SAVE } from '@service-sdk/core'
import { SimError } from '../http/sim-error.ts'
import type { MaterialSaveForm, SavedMaterial, SimContext } from '../model/context.ts'
import { BUCKET, type Id, type Material, type SpaceKey } from '../model/state.ts'
import { parseId } from './folders.ts'
import { canWrite } from './orgs.ts'
import { uploadDir } from './sts.ts'

/** Where a saved asset's bytes are served from, permanently. */
export function accessUrlOf(origin: string, m: Material): string {
  return `${origin}/files/${m.id}/${encodeURIComponent(`${m.name}.${m.extension}`)}`
}

/**
 * The fields of a material-save body in the accepted form(s) (quirk `materialSaveForm`). A body of
 * the other form reads as one without materials, as a service that knows one form would read it.
 */
function fieldsOf(body: Record<string, unknown>, form: MaterialSaveForm): Record<string, unknown> {
  const param = isObject(body.param) ? body.param : undefined
  if (form === 'param') {
    if (param) return param
    throw new SimError('bad_request', 'param.materials must be a non-empty list (param is required)')
  }
  if (form === 'top-level') return body
  return param && !('materials' in body) ? param : body
}

/**
 * material-save. Accepts the documented body forms the `materialSaveForm` quirk allows (both by
 * default). Checks everything before saving anything: the space's write rule, each object's
 * existence and size, that each key lies in the caller's upload directory, and each folder.
 */
export async function saveMaterials(
  sim: SimContext,
  userId: Id,
  body: Record<string, unknown>,
  origin: string,
) {
  const form = fieldsOf(body, sim.quirks.materialSaveForm ?? 'both')
  const space = spaceOf(sim, userId, form.orgId)
  const items = form.materials
  if (!Array.isArray(items) || items.length === 0)
    throw new SimError('bad_request', 'materials must be a non-empty list')
  if (items.length > MAX_MATERIALS_PER_SAVE) {
    throw new SimError('bad_request', `At most ${MAX_MATERIALS_PER_SAVE} materials per call`)
  }
  const checked = []
  for (const [index, item] of items.entries()) checked.push(await checkItem(sim, userId, space, item, index))
  const saved: SavedMaterial[] = checked.map((m) => {
    const material: Material = { ...m, id: sim.state.nextId(), createdAt: sim.now() }
    sim.state.data.materials.push(material)
    return { ...material, accessUrl: accessUrlOf(origin, material) }
  })
  sim.state.commit()
  sim.events.materialsSaved(saved, userId)
  return saved
}

function spaceOf(sim: SimContext, userId: Id, orgId: unknown): SpaceKey {
  if (orgId === undefined || orgId === null) return `u:${userId}`
  const id = parseId(orgId, 'orgId')
  const team = sim.state.team(id)
  if (!team || !sim.state.membership(team.id, userId)) {
    throw new SimError('forbidden', `No permission: the caller is not a member of space ${id}`)
  }
  if (!canWrite(sim, team, userId)) {
    throw new SimError(
      'forbidden',
      `No permission to write into space ${id} (view-only role, or the space has expired)`,
    )
  }
  return `t:${team.id}`
}

async function checkItem(sim: SimContext, userId: Id, space: SpaceKey, item: unknown, index: number) {
  const at = `materials[${index}]`
  if (!isObject(item)) throw new SimError('bad_request', `${at} must be an object`)
  const { key, name, extension, size } = item
  if (typeof key !== 'string' || key === '') throw new SimError('bad_request', `${at}.key is required`)
  if (typeof name !== 'string' || name === '') throw new SimError('bad_request', `${at}.name is required`)
  if (typeof extension !== 'string') throw new SimError('bad_request', `${at}.extension is required`)
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw new SimError('bad_request', `${at}.size must be a non-negative integer (bytes)`)
  }
  const dir = uploadDir(sim, userId)
  if (!key.startsWith(dir)) {
    throw new SimError('forbidden', `${at}.key is outside the caller's upload directory ${dir}`)
  }
  const object = await sim.store.head(BUCKET, key)
  if (!object) throw new SimError('not_found', `${at}.key: no uploaded object ${key}`)
  if (object.size !== size) {
    throw new SimError('bad_request', `${at}.size is ${size} but the object has ${object.size} bytes`)
  }
  const folderId =
    item.folderId === undefined || item.folderId === null ? '0' : parseId(item.folderId, `${at}.folderId`)
  if (folderId !== '0' && sim.state.folder(folderId)?.space !== space) {
    throw new SimError('not_found', `${at}.folderId: folder ${folderId} not found in this space`)
  }
  const optional = optionalFields(item, at)
  return {
    key,
    bucket: BUCKET,
    name,
    extension,
    size,
    folderId,
    space,
    ownerUserId: userId,
    createUserId: userId,
    ...optional,
  }
}

function optionalFields(item: Record<string, unknown>, at: string) {
  const out: Partial<Pick<Material, 'width' | 'height' | 'description' | 'tags' | 'link'>> = {}
  for (const field of ['width', 'height'] as const) {
    const v = item[field]
    if (v === undefined || v === null) continue
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      throw new SimError('bad_request', `${at}.${field} must be a non-negative integer`)
    }
    out[field] = v
  }
  for (const field of ['description', 'link'] as const) {
    const v = item[field]
    if (v === undefined || v === null) continue
    if (typeof v !== 'string') throw new SimError('bad_request', `${at}.${field} must be a string`)
    out[field] = v
  }
  if (item.tags !== undefined && item.tags !== null) {
    if (!Array.isArray(item.tags) || !item.tags.every((t) => typeof t === 'string')) {
      throw new SimError('bad_request', `${at}.tags must be a list of strings`)
    }
    out.tags = item.tags as string[]
  }
  return out
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
