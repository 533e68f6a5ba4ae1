import { SimError } from '../http/sim-error.ts'
import type { MetadataChange, SimContext } from '../model/context.ts'
import type { Material } from '../model/state.ts'
import { tagFields } from './asset-snapshot.ts'
import { idOf, teamIdOf } from './material-lookup.ts'

/** What a MATERIAL_METADATA_UPDATED event says about one asset. */
export interface MetadataOutcome {
  /** The asset's id before the change (an owner transfer gives the asset a new id). */
  previousId: string
  /** The materials[] item: only the fields of this changeType that have a value (spec: `MaterialMetadataUpdatedPayload`). */
  item: Record<string, unknown>
}

/** One changeType: validates `input`, applies it to `m`, and gives the materials[] item. */
interface ChangeArgs {
  sim: SimContext
  m: Material
  input: Record<string, unknown>
  present: (keys: readonly string[]) => Record<string, unknown>
}
type Change = (args: ChangeArgs) => Record<string, unknown>

const BASIC: Change = ({ m, present }) => {
  const fields = present(['name', 'description', 'score', 'link'])
  if (Object.keys(fields).length === 0)
    throw new SimError('bad_request', 'BASIC needs name, description, score or link')
  if ('name' in fields && !nonEmptyString(fields.name))
    throw new SimError('bad_request', 'name must be a non-empty string')
  for (const k of ['description', 'link'] as const) {
    if (k in fields && typeof fields[k] !== 'string')
      throw new SimError('bad_request', `${k} must be a string`)
  }
  if (
    'score' in fields &&
    !(Number.isInteger(fields.score) && (fields.score as number) >= 1 && (fields.score as number) <= 5)
  ) {
    throw new SimError('bad_request', 'score must be an integer from 1 to 5')
  }
  Object.assign(m, fields)
  return { materialId: BigInt(m.id), ...fields }
}

const VALIDITY: Change = ({ m, input, present }) => {
  if (!Number.isInteger(input.validityStatus))
    throw new SimError('bad_request', 'validityStatus must be an integer')
  const fields = present([
    'validityStatus',
    'validityStatusName',
    'daysToExpire',
    'startTime',
    'endTime',
    'isPermanent',
  ])
  // Kept for the clock: as days pass, the asset's validity counts down (validity.ts).
  if (input.isPermanent === true || typeof input.endTime !== 'number') delete m.validity
  else
    m.validity = {
      endTime: input.endTime,
      ...(typeof input.startTime === 'number' ? { startTime: input.startTime } : {}),
    }
  return { materialId: BigInt(m.id), ...fields }
}

const TAGS: Change = ({ m, input }) => {
  const names = input.tagNames
  if (!Array.isArray(names) || !names.every(nonEmptyString)) {
    throw new SimError('bad_request', 'tagNames must be a list of non-empty strings (empty to clear)')
  }
  const tags = [...new Set(names as string[])]
  if (tags.length > 0) m.tags = tags
  else delete m.tags
  return { materialId: BigInt(m.id), ...tagFields(tags) }
}

const OWNER: Change = ({ sim, m, input }) => {
  const ownerUserId = idOf(input.ownerUserId, 'ownerUserId')
  if (!sim.state.user(ownerUserId)) throw new SimError('not_found', `User not found: ${ownerUserId}`)
  const teamId = teamIdOf(m.space)
  if (teamId === undefined)
    throw new SimError('bad_request', 'Ownership is transferred within a team space only')
  if (!sim.state.membership(teamId, ownerUserId)) {
    throw new SimError('bad_request', `User ${ownerUserId} is not a member of team ${teamId}`)
  }
  // "materialId (the new asset id after transfer)": the transferred asset gets a new id.
  const newId = sim.state.nextId()
  for (const other of sim.state.data.materials) if (other.coverId === m.id) other.coverId = newId
  m.id = newId
  m.ownerUserId = ownerUserId
  return { materialId: BigInt(newId), ownerUserId: BigInt(ownerUserId) }
}

const METADATA: Change = ({ m, input }) => {
  const { metadata } = input
  if (
    typeof metadata !== 'object' ||
    metadata === null ||
    Array.isArray(metadata) ||
    Object.keys(metadata).length === 0
  ) {
    throw new SimError(
      'bad_request',
      'metadata must be a non-empty object of the custom fields created or updated',
    )
  }
  const recordId = input.recordId === undefined ? undefined : idOf(input.recordId, 'recordId')
  return {
    materialId: BigInt(m.id),
    ...(recordId === undefined ? {} : { recordId: BigInt(recordId) }),
    metadata,
  }
}

const CUSTOM_FIELD: Change = ({ m, input }) => {
  const fields = input.customFields
  if (!Array.isArray(fields) || fields.length === 0)
    throw new SimError('bad_request', 'customFields must be a non-empty list')
  const customFields = fields.map((f: unknown, i) => {
    if (typeof f !== 'object' || f === null)
      throw new SimError('bad_request', `customFields[${i}] must be an object`)
    const field = f as Record<string, unknown>
    return { ...field, templateId: BigInt(idOf(field.templateId, `customFields[${i}].templateId`)) }
  })
  return { materialId: BigInt(m.id), customFields }
}

const CHANGES: Record<string, Change> = { BASIC, VALIDITY, TAGS, OWNER, METADATA, CUSTOM_FIELD }

/**
 * Validate a change (it may come as JSON through the control API), apply it to the state and
 * describe it. Nothing is changed when the change is refused.
 */
export function applyMetadataChange(sim: SimContext, m: Material, change: MetadataChange): MetadataOutcome {
  const previousId = m.id
  const input = (typeof change === 'object' && change !== null ? change : {}) as Record<string, unknown>
  const present = (keys: readonly string[]) =>
    Object.fromEntries(keys.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]))
  const apply = typeof input.changeType === 'string' ? CHANGES[input.changeType] : undefined
  if (!apply) throw new SimError('bad_request', `Unknown changeType: ${String(input.changeType)}`)
  return { previousId, item: apply({ sim, m, input, present }) }
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}
