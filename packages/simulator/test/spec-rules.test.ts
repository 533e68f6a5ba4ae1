import { createRequire } from 'node:module'
import { stringifyJson } from '@service-sdk/core/internal'
import {
  createMemberInputSchema,
  eventSubscribeRequestSchema,
  folderSubscribeRequestSchema,
  impersonationRequestSchema,
  inviteMemberInputSchema,
  materialSaveRequestSchema,
} from '@service-sdk/core/schemas'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningSimulator, startSimulator } from '../src/index.ts'
import { spec, specAccepts } from './spec-validator.ts'

// The spec carries every rule: for each constrained field of each request body, boundary values
// are generated from spec/openapi.yaml itself; the spec's verdict on the whole body (ajv), the
// SDK's zod request schema and the simulator must agree on each. A rule only one of them enforces
// (a length, range, maximum, enum or format) fails here until the spec states it.

type Node = Record<string, unknown>
type Path = Array<string | number>
interface Mutation {
  path: Path
  value: unknown
  why: string
}

const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { put(key: string, body: Buffer): Promise<unknown> }

function resolve(node: unknown): Node {
  const ref = (node as Node).$ref
  if (typeof ref !== 'string') return node as Node
  return resolve(
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, part) => (at as Node)[part], spec),
  )
}

function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)?.[key], value)
}

function withValue(base: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>
  let target = copy
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>
  target[path.at(-1) as string | number] = value
  return copy
}

/** Boundary values of every constraint the spec states, for the field at `path` and below. */
function* mutations(schemaNode: unknown, path: Path, base: unknown): Generator<Mutation> {
  const s = resolve(schemaNode)
  const name = path.join('.') || '(body)'
  if (Array.isArray(s.oneOf)) return yield* mutations(s.oneOf[0], path, base)
  if (s.type === 'object' && s.properties) {
    for (const [key, sub] of Object.entries(s.properties as Node)) yield* mutations(sub, [...path, key], base)
    return
  }
  if (Array.isArray(s.enum)) {
    for (const value of [...s.enum, 'NOT_IN_THE_SPEC']) yield { path, value, why: `${name} = ${value}` }
  }
  if (s.type === 'array') {
    const item = (at(base, path) as unknown[] | undefined)?.[0]
    const lengths = [s.minItems, s.maxItems].flatMap((n) =>
      typeof n === 'number' ? [n - 1, n, n + 1].filter((l) => l >= 0) : [],
    )
    for (const length of new Set(lengths)) {
      yield { path, value: Array.from({ length }, () => item), why: `${name} with ${length} items` }
    }
    if (item !== undefined) yield* mutations(s.items, [...path, 0], base)
  }
  if (s.type === 'string') {
    for (const n of [s.minLength, s.maxLength]) {
      if (typeof n !== 'number') continue
      for (const length of [n - 1, n, n + 1].filter((l) => l >= 0))
        yield { path, value: 'x'.repeat(length), why: `${name} of length ${length}` }
    }
    if (s.format === 'uri' || s.pattern) {
      for (const value of [
        'http://127.0.0.1:9/rules',
        'https://127.0.0.1:9/rules',
        'ftp://127.0.0.1/x',
        'not a url',
      ])
        yield { path, value, why: `${name} = ${value}` }
    }
    if (s.format === 'email') {
      for (const value of ['someone.new@acme.com', 'not-an-email', ''])
        yield { path, value, why: `${name} = ${JSON.stringify(value)}` }
    }
  }
  if (s.type === 'number' || s.type === 'integer') {
    const step = s.type === 'integer' ? 1 : 0.5
    const values = new Set<number>()
    for (const bound of [s.minimum, s.exclusiveMinimum, s.maximum, s.exclusiveMaximum]) {
      if (typeof bound === 'number') for (const v of [bound - step, bound, bound + step]) values.add(v)
    }
    if (s.type === 'integer') values.add((typeof s.minimum === 'number' ? s.minimum : 0) + 0.5)
    for (const value of values) yield { path, value, why: `${name} = ${value}` }
  }
}

let sim: RunningSimulator
const GRACE = '1673603133161799681'
const PERSONAL_FOLDER = 1753946835000000002n
const CALL = '/open-api/standard/call/service'

interface Endpoint {
  name: string
  path: string
  schema: string
  zod: { safeParse(value: unknown): { success: boolean } }
  auth: () => string
  base: () => unknown
}

let uploadedKey = ''
const endpoints: Endpoint[] = [
  {
    name: 'team members create',
    path: '/api/team/members/create',
    schema: 'CreateMemberInput',
    zod: createMemberInputSchema,
    auth: () => `Bearer ${sim.credentials.teamApiKey}`,
    base: () => ({ email: 'rules@acme.com', password: 'secret' }),
  },
  {
    name: 'team members invite',
    path: '/api/team/members/invite',
    schema: 'InviteMemberInput',
    zod: inviteMemberInputSchema,
    auth: () => `Bearer ${sim.credentials.teamApiKey}`,
    base: () => ({ email: 'margaret@acme.cn' }),
  },
  {
    name: 'team members impersonation',
    path: `/api/team/members/${GRACE}/impersonation`,
    schema: 'ImpersonationRequest',
    zod: impersonationRequestSchema,
    auth: () => `Bearer ${sim.credentials.teamApiKey}`,
    base: () => ({ expiryHours: 2, callbackUrl: '/library' }),
  },
  {
    name: 'material-save',
    path: `${CALL}/material-save`,
    schema: 'MaterialSaveRequest',
    zod: materialSaveRequestSchema,
    auth: () => `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`,
    base: () => ({ materials: [{ key: uploadedKey, name: 'rules', extension: 'txt', size: 0 }] }),
  },
  {
    name: 'folder-subscribe',
    path: '/api/service/folder-subscribe',
    schema: 'FolderSubscribeRequest',
    zod: folderSubscribeRequestSchema,
    auth: () => `Bearer ${sim.credentials.apiKey}`,
    base: () => ({
      folderIds: [PERSONAL_FOLDER],
      callbackUrl: 'http://127.0.0.1:9/folders',
      eventType: 'FOLDER_CONTENT_UPDATE',
      operation: 'DELETE',
    }),
  },
  {
    name: 'material-automation-subscribe',
    path: '/api/service/material-automation-subscribe',
    schema: 'EventSubscribeRequest',
    zod: eventSubscribeRequestSchema,
    auth: () => `Bearer ${sim.credentials.apiKey}`,
    base: () => ({
      callbackUrl: 'http://127.0.0.1:9/events',
      eventTypes: ['MATERIAL_DELETED'],
      operation: 'DELETE',
    }),
  },
]

/**
 * Refusals that depend on stored state, not on the body's shape: the spec states them in prose
 * (MaterialInput.size) and other tests drive them.
 */
const STATE_RULES = [/size is \d+ but the object has \d+ bytes/]

/** Whether the simulator refuses the body as invalid input (400; open area MB100001 or MB100004). */
async function simulatorAccepts(
  endpoint: Endpoint,
  body: unknown,
): Promise<{ accepts: boolean; said: string }> {
  const response = await fetch(`${sim.urls.base}${endpoint.path}`, {
    method: 'POST',
    headers: { authorization: endpoint.auth(), 'content-type': 'application/json' },
    body: stringifyJson(body),
  })
  const answer = (await response.json()) as { code?: string; message?: string; error?: string }
  const said = answer.message ?? answer.error ?? ''
  const refused =
    (response.status === 400 || answer.code === 'MB100001' || answer.code === 'MB100004') &&
    !STATE_RULES.some((rule) => rule.test(said))
  return {
    accepts: !refused,
    said: `${response.status} ${answer.code ?? ''} ${answer.message ?? answer.error ?? ''}`,
  }
}

beforeAll(async () => {
  sim = await startSimulator()
  const sts = await fetch(`${sim.urls.base}${CALL}/sts-tmp`, {
    method: 'POST',
    headers: {
      authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`,
      'content-type': 'application/json',
    },
  })
  const c = ((await sts.json()) as { result: Record<string, string> }).result
  uploadedKey = `${c.dir}empty.txt`
  await new OSS({
    endpoint: c.endPoint,
    accessKeyId: c.accessKeyId,
    accessKeySecret: c.accessKeySecret,
    stsToken: c.securityToken,
    bucket: c.bucket,
  }).put(uploadedKey, Buffer.alloc(0))
})
afterAll(async () => {
  await sim?.stop()
})

describe.each(endpoints)('$name: spec, zod schema and simulator agree on every boundary', (endpoint) => {
  test('each value generated from the spec gets the same verdict from all three', async () => {
    const pointer = `/components/schemas/${endpoint.schema}`
    const base = endpoint.base()
    expect(specAccepts(pointer, JSON.parse(stringifyJson(base)))).toBe(true)
    const disagreements: string[] = []
    let checked = 0
    for (const { path, value, why } of mutations(resolve({ $ref: `#${pointer}` }), [], base)) {
      const body = withValue(base, path, value)
      const wire = JSON.parse(stringifyJson(body))
      const expected = specAccepts(pointer, wire)
      const zodAccepts = endpoint.zod.safeParse(body).success
      const simulator = await simulatorAccepts(endpoint, body)
      checked++
      if (zodAccepts !== expected || simulator.accepts !== expected) {
        disagreements.push(
          `${why}: spec ${expected ? 'accepts' : 'refuses'}, zod ${zodAccepts ? 'accepts' : 'refuses'}, simulator ${simulator.accepts ? 'accepts' : 'refuses'} (${simulator.said})`,
        )
      }
    }
    expect(disagreements).toEqual([])
    expect(checked).toBeGreaterThan(2)
  })
})
