import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { z } from 'zod'
import { stringifyJson } from '../json/json.ts'
import { parseServiceJson } from '../json/service-json.ts'
import * as S from './index.ts'

// Every example in spec/openapi.yaml must parse with the zod schema of the component it
// illustrates. Adding an example to a component without a zod mapping here fails the run.

const metadataVariant = (changeType: string) =>
  S.materialMetadataUpdatedPayloadSchema.refine(
    (p) => p.changeType === changeType,
    `changeType must be ${changeType}`,
  )
const eventTypeList = z.array(S.eventTypeEntrySchema)

const ZOD: Record<string, z.ZodType> = {
  Id: S.idSchema,
  IdString: S.idSchema,
  // envelopes
  TeamSuccessEnvelope: S.teamEnvelopeSchema(z.unknown()),
  TeamErrorEnvelope: S.teamErrorEnvelopeSchema,
  OpenCode: S.openCodeSchema,
  OpenEnvelope: S.openEnvelopeSchema(z.unknown()),
  OpenErrorEnvelope: S.openErrorEnvelopeSchema,
  // area A
  TeamMember: S.teamMemberSchema,
  CreatedMember: S.createdMemberSchema,
  CreateMemberInput: S.createMemberInputSchema,
  InviteMemberInput: S.inviteMemberInputSchema,
  ImpersonationRequest: S.impersonationRequestSchema,
  Impersonation: S.impersonationSchema,
  TeamMemberListEnvelope: S.teamEnvelopeSchema(z.array(S.teamMemberSchema)),
  CreatedMemberEnvelope: S.teamEnvelopeSchema(S.createdMemberSchema),
  ImpersonationEnvelope: S.teamEnvelopeSchema(S.impersonationSchema),
  // area B
  UploadCredential: S.uploadCredentialSchema,
  UploadCredentialEnvelope: S.openEnvelopeSchema(S.uploadCredentialSchema),
  RoleCode: S.roleCodeSchema,
  OrgSpace: S.orgSpaceSchema,
  OrgInfoResult: S.orgInfoResultSchema,
  OrgInfoEnvelope: S.openEnvelopeSchema(S.orgInfoResultSchema),
  MaterialInput: S.materialInputSchema,
  MaterialSaveInput: S.materialSaveInputSchema,
  MaterialSaveParamForm: z.strictObject({ param: S.materialSaveInputSchema }),
  MaterialSaveRequest: S.materialSaveRequestSchema,
  SavedMaterial: S.savedMaterialSchema,
  MaterialSaveResult: S.materialSaveResultSchema,
  MaterialSaveEnvelope: S.openEnvelopeSchema(S.materialSaveResultSchema),
  SubscriptionOperation: S.subscriptionOperationSchema,
  FolderEventType: S.folderEventTypeSchema,
  FolderSubscribeRequest: S.folderSubscribeRequestSchema,
  AssetEventType: S.assetEventTypeSchema,
  EventSubscribeRequest: S.eventSubscribeRequestSchema,
  SubscribeEnvelope: S.openEnvelopeSchema(z.boolean()),
  EventTypeEntry: S.eventTypeEntrySchema,
  EventTypeListEnvelope: S.openEnvelopeSchema(eventTypeList),
  EventTypeListResponse: z.union([S.openEnvelopeSchema(eventTypeList), eventTypeList]),
  // folder-content callback
  MaterialCallbackAsset: S.materialCallbackAssetSchema,
  FolderContentCallback: S.folderContentCallbackSchema,
  // asset events
  InboundUploadResult: S.inboundUploadResultSchema,
  MaterialInboundCompletedPayload: S.materialInboundCompletedPayloadSchema,
  MaterialInboundCompletedEvent: S.materialInboundCompletedEventSchema,
  MaterialAddedToFolderPayload: S.materialAddedToFolderPayloadSchema,
  MaterialAddedToFolderEvent: S.materialAddedToFolderEventSchema,
  BasicChange: S.basicChangeSchema,
  ValidityChange: S.validityChangeSchema,
  TagsChange: S.tagsChangeSchema,
  OwnerChange: S.ownerChangeSchema,
  MetadataChange: S.metadataChangeSchema,
  CustomFieldValue: S.customFieldValueSchema,
  CustomFieldChange: S.customFieldChangeSchema,
  BasicChangePayload: metadataVariant('BASIC'),
  ValidityChangePayload: metadataVariant('VALIDITY'),
  TagsChangePayload: metadataVariant('TAGS'),
  OwnerChangePayload: metadataVariant('OWNER'),
  MetadataChangePayload: metadataVariant('METADATA'),
  CustomFieldChangePayload: metadataVariant('CUSTOM_FIELD'),
  OtherMetadataChangePayload: S.otherMetadataChangePayloadSchema.refine(
    (p) => !S.isKnownChangeType(p as never),
    'changeType must be one the SDK does not type',
  ),
  MaterialMetadataUpdatedPayload: S.materialMetadataUpdatedPayloadSchema,
  MaterialMetadataUpdatedEvent: S.materialMetadataUpdatedEventSchema,
  VersionAction: S.versionActionSchema,
  MaterialVersionChangedPayload: S.materialVersionChangedPayloadSchema,
  MaterialVersionChangedEvent: S.materialVersionChangedEventSchema,
  DeletedMaterialSnapshot: S.deletedMaterialSnapshotSchema,
  MaterialDeletedPayload: S.materialDeletedPayloadSchema,
  MaterialDeletedEvent: S.materialDeletedEventSchema,
  AssetEvent: S.assetEventSchema,
}

type Node = { [key: string]: unknown }
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * YAML integers are parsed as bigint so 19-digit ids keep every digit; the ones a number holds
 * exactly become numbers again, as a JSON parser would give them.
 */
function exact(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value
  if (Array.isArray(value)) return value.map(exact)
  if (isNode(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, exact(v)]))
  return value
}

const spec = exact(
  parse(readFileSync(new URL('../../../../spec/openapi.yaml', import.meta.url), 'utf8'), {
    intAsBigInt: true,
  }),
) as Node

interface Example {
  where: string
  schema: string
  value: unknown
}

function refName(schema: unknown): string | undefined {
  const ref = isNode(schema) ? schema.$ref : undefined
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined
}

/** Every example in the document, with the name of the component schema it illustrates. */
function collectExamples(): { examples: Example[]; unnamed: string[] } {
  const examples: Example[] = []
  const unnamed: string[] = []
  const visit = (node: unknown, path: string[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        visit(item, [...path, String(i)])
      })
      return
    }
    if (!isNode(node)) return
    const where = path.join('/')
    const isComponentSchema = path.length === 3 && path[0] === 'components' && path[1] === 'schemas'
    const schema = isComponentSchema ? path[2] : refName(node.schema)
    const values: Array<[string, unknown]> = []
    if ('example' in node) values.push([`${where}/example`, node.example])
    if (Array.isArray(node.examples)) {
      node.examples.forEach((v, i) => {
        values.push([`${where}/examples/${i}`, v])
      })
    } else if (isNode(node.examples)) {
      for (const [name, ex] of Object.entries(node.examples)) {
        values.push([`${where}/examples/${name}`, isNode(ex) ? ex.value : undefined])
      }
    }
    for (const [at, value] of values) {
      if (schema === undefined) unnamed.push(at)
      else examples.push({ where: at, schema, value })
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples') continue
      // Property names are not keywords: a property called `example` is a schema.
      if (key === 'properties' && isNode(value)) {
        for (const [name, prop] of Object.entries(value)) visit(prop, [...path, key, name])
      } else visit(value, [...path, key])
    }
  }
  visit(spec, [])
  return { examples, unnamed }
}

/** Every bigint in a value: ids beyond 2^53 whose digits the parse must keep. */
function bigints(value: unknown): string[] {
  if (typeof value === 'bigint') return [value.toString()]
  if (Array.isArray(value)) return value.flatMap(bigints)
  if (isNode(value)) return Object.values(value).flatMap(bigints)
  return []
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (isNode(value)) return Object.values(value).flatMap(strings)
  return []
}

const { examples, unnamed } = collectExamples()

describe('spec examples', () => {
  test('every example belongs to a named component schema', () => {
    // An example on an inline schema cannot be mapped to a zod schema: move it to a component.
    expect(unnamed).toEqual([])
    expect(examples.length).toBeGreaterThan(80)
  })

  test('every component schema with examples has a zod schema, and every mapping is used', () => {
    const named = new Set(examples.map((e) => e.schema))
    expect([...named].filter((name) => !(name in ZOD)).sort()).toEqual([])
    const components = Object.keys((spec.components as { schemas: Node }).schemas)
    expect(Object.keys(ZOD).filter((name) => !components.includes(name))).toEqual([])
    // Every component carries at least one example.
    expect(components.filter((name) => !named.has(name))).toEqual([])
  })

  test.each(examples.map((e) => [e.where, e] as const))('%s', (_where, { schema, value }) => {
    const zod = ZOD[schema]
    if (!zod) throw new Error(`no zod schema mapped for ${schema}`)
    const direct = zod.safeParse(value)
    if (!direct.success) throw new Error(`${schema}: ${z.prettifyError(direct.error)}`)
    // Ids beyond 2^53 come out with every digit, as decimal strings.
    const output = strings(direct.data)
    for (const digits of bigints(value)) expect(output).toContain(digits)
    // The wire path gives the same result: serialized with raw integers, parsed losslessly.
    const wire = zod.safeParse(parseServiceJson(stringifyJson(value)))
    if (!wire.success) throw new Error(`${schema} (via JSON): ${z.prettifyError(wire.error)}`)
    expect(wire.data).toEqual(direct.data)
  })

  test('the live folder-callback sample keeps its 19-digit ids', () => {
    const sample = examples.find((e) => e.schema === 'FolderContentCallback')
    const parsed = S.folderContentCallbackSchema.parse(sample?.value)
    expect(parsed.folderId).toBe('1949870453162360832')
    expect(parsed.assets?.[0]?.id).toBe('1951438207513255936')
    expect(parsed.assets?.[0]?.userId).toBe('1673603133161799680')
    expect(parsed.eventTime).toBe('1753946835010')
    expect(parsed.orgId).toBeUndefined()
  })
})
