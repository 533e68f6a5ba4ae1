import { createRequire } from 'node:module'
import { inspect } from 'node:util'
import {
  type Logger,
  ServiceApiError,
  ServiceError,
  ServiceInvalidRequestError,
  ServiceNotFoundError,
  ServicePermissionError,
  ServiceRateLimitError,
  ServiceValidationError,
  type UploadCredential,
} from '@service-sdk/core'
import { createFakeFetch, openSuccess } from '@service-sdk/core/testing'
import { defaultSeed, type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  canWrite,
  createOpenClient,
  MaterialSaveError,
  type OpenClientOptions,
  SubscriptionNotAppliedError,
  withResponse,
  writableOrgs,
} from '../src/index.ts'
import { materialSaveOrgId } from '../src/org-id.ts'

// The real ali-oss client (it ships no type declarations): only `put` is used here.
const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { put(key: string, body: Buffer): Promise<unknown> }

let sim: RunningSimulator
const logs: string[] = []
const errors: unknown[] = []
const record = (m: string, f?: Record<string, unknown>) => logs.push(`${m} ${JSON.stringify(f)}`)
const logger: Logger = { debug: record, info: record, warn: record, error: record }

function client(overrides: Partial<OpenClientOptions> = {}) {
  const sent: Array<{ path: string; body: string }> = []
  const open = createOpenClient({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    apiKey: sim.credentials.apiKey,
    logger,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    fetch: async (input, init) => {
      const request = new Request(input, init)
      sent.push({ path: new URL(request.url).pathname, body: await request.clone().text() })
      return fetch(request)
    },
    ...overrides,
  })
  return { open, sent }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e,
  )
  errors.push(error)
  return error
}

/** Put bytes into the simulator's object storage with the real ali-oss client. */
async function putObject(credential: UploadCredential, name: string, bytes: Buffer): Promise<string> {
  const oss = new OSS({
    endpoint: credential.endPoint,
    accessKeyId: credential.accessKeyId,
    accessKeySecret: credential.accessKeySecret,
    stsToken: credential.securityToken,
    bucket: credential.bucket,
  })
  const key = `${credential.dir}${name}`
  await oss.put(key, bytes)
  return key
}

const PERSONAL_FOLDER = '1753946835000000002'
const ACME_FOLDER = '1753946835010000002'
const STARK = '1006'

beforeAll(async () => {
  sim = await startSimulator()
})
afterEach(() => {
  sim.control.faults.clear()
  sim.control.quirks.successCode = '0'
  sim.control.quirks.bareEventTypes = false
  sim.control.quirks.materialSaveForm = 'both'
})
afterAll(async () => {
  await sim.stop()
})

describe('credentials and spaces', () => {
  test('credentials() returns the STS credential with every field', async () => {
    const { open } = client()
    const credential = await open.credentials()
    expect(credential).toEqual({
      endPoint: sim.urls.oss,
      bucket: 'service-sim',
      dir: 'upload/1673603133161799680/',
      accessKeyId: expect.stringMatching(/^STS\./),
      accessKeySecret: expect.any(String),
      securityToken: expect.any(String),
    })
  })

  test('orgs() lists every space with roles, fee types and validity; ids are strings', async () => {
    const { open } = client()
    const orgs = await open.orgs()
    expect(orgs.map((o) => o.id)).toEqual(['1001', '1002', '1003', '1004', '1005', '1006'])
    expect(orgs.find((o) => o.id === '1004')).toMatchObject({ valid: false, roleCode: 'member_edit' })
    expect(orgs.find((o) => o.id === STARK)).toMatchObject({
      roleId: 4,
      roleCode: 'member_view',
      valid: true,
    })
    expect(new Set(orgs.map((o) => o.orgFeeType))).toEqual(new Set([0, 1, 2, 3]))
  })

  test('writableOrgs() applies the write rule', async () => {
    const { open } = client()
    expect((await open.writableOrgs()).map((o) => o.id)).toEqual(['1001', '1002', '1003', '1005'])
  })
})

describe('canWrite: the write rule (docs/service/spaces.md)', () => {
  const now = Date.parse('2026-06-01T00:00:00Z')
  const base = { roleCode: 'owner' as const, valid: true, invalidTime: now + 1 }
  test.each([
    ['owner, valid, future', base, true],
    ['member_view', { ...base, roleCode: 'member_view' as const }, false],
    ['member_upload_view', { ...base, roleCode: 'member_upload_view' as const }, true],
    ['valid false', { ...base, valid: false }, false],
    ['invalidTime now (not later than now)', { ...base, invalidTime: now }, false],
    ['invalidTime past though valid', { ...base, invalidTime: now - 1 }, false],
  ])('%s -> %s', (_n, org, expected) => {
    expect(canWrite(org, now)).toBe(expected)
    expect(canWrite(org, new Date(now))).toBe(expected)
    expect(writableOrgs([org], now)).toHaveLength(expected ? 1 : 0)
  })
})

describe('materials.save', () => {
  test('saves into the personal space root and into a folder; the accessUrl serves the bytes', async () => {
    const { open } = client()
    const credential = await open.credentials()
    const bytes = Buffer.from('hello, asset')
    const key = await putObject(credential, 'greeting.txt', bytes)
    const [root, inFolder] = await open.materials.save({
      materials: [
        { key, name: 'greeting', extension: 'txt', size: bytes.length },
        {
          key,
          name: 'greeting copy',
          extension: 'txt',
          size: bytes.length,
          folderId: PERSONAL_FOLDER,
          tags: ['a'],
        },
      ],
    })
    expect(root?.id).toMatch(/^\d{19}$/)
    expect(BigInt(root?.id ?? 0)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER))
    expect(root).toMatchObject({ key, name: 'greeting' })
    expect(inFolder?.id).not.toBe(root?.id)
    const served = await fetch(root?.accessUrl ?? '')
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes)
    const saved = sim.control.snapshot().materials.find((m) => m.id === inFolder?.id)
    expect(saved).toMatchObject({ folderId: PERSONAL_FOLDER, space: 'u:1673603133161799680' })
  })

  test('orgId 1 (the selector’s personal space) is never sent; a team orgId is sent as a JSON integer', async () => {
    const { open, sent } = client()
    const credential = await open.credentials()
    const key = await putObject(credential, 'one.txt', Buffer.from('1'))
    expect(materialSaveOrgId('1')).toBeUndefined()
    expect(materialSaveOrgId(1001)).toBe('1001')
    await open.materials.save({ orgId: 1, materials: [{ key, name: 'one', extension: 'txt', size: 1 }] })
    await open.materials.save({
      orgId: '1001',
      materials: [{ key, name: 'one', extension: 'txt', size: 1, folderId: ACME_FOLDER }],
    })
    const bodies = sent.filter((s) => s.path.endsWith('/material-save')).map((s) => s.body)
    expect(bodies[0]).not.toContain('orgId')
    expect(bodies[1]).toContain('"orgId":1001')
    expect(bodies[1]).toContain(`"folderId":${ACME_FOLDER}`)
  })

  test('a view-only space is refused by the service with a permission error', async () => {
    const { open } = client()
    const credential = await open.credentials()
    const key = await putObject(credential, 'view.txt', Buffer.from('v'))
    const error = await failure(
      open.materials.save({ orgId: STARK, materials: [{ key, name: 'v', extension: 'txt', size: 1 }] }),
    )
    expect(ServicePermissionError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'MB100002', traceId: expect.any(String) })
  })

  test('a folder of another space, a missing object and a wrong size are refused', async () => {
    const { open } = client()
    const credential = await open.credentials()
    const key = await putObject(credential, 'checks.txt', Buffer.from('check'))
    const wrongFolder = await failure(
      open.materials.save({
        materials: [{ key, name: 'c', extension: 'txt', size: 5, folderId: ACME_FOLDER }],
      }),
    )
    expect(ServiceNotFoundError.isInstance(wrongFolder)).toBe(true)
    const missing = await failure(
      open.materials.save({
        materials: [{ key: `${credential.dir}nope.txt`, name: 'c', extension: 'txt', size: 5 }],
      }),
    )
    expect(ServiceNotFoundError.isInstance(missing)).toBe(true)
    const wrongSize = await failure(
      open.materials.save({ materials: [{ key, name: 'c', extension: 'txt', size: 4 }] }),
    )
    expect(ServiceInvalidRequestError.isInstance(wrongSize)).toBe(true)
  })

  test('long lists go out in batches; a failing later batch reports what was saved', async () => {
    const { open, sent } = client({ maxMaterialsPerSave: 2 })
    const credential = await open.credentials()
    const key = await putObject(credential, 'batch.txt', Buffer.from('b'))
    const item = (i: number) => ({ key, name: `b${i}`, extension: 'txt', size: 1 })
    const saved = await open.materials.save({ materials: [0, 1, 2, 3, 4].map(item) })
    expect(saved.map((m) => m.name)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4'])
    expect(sent.filter((s) => s.path.endsWith('/material-save'))).toHaveLength(3)

    sim.control.faults.inject({
      match: { path: '/material-save' },
      action: { type: 'open-code', code: 'MB100001' },
      skip: 1,
    })
    const error = await failure(open.materials.save({ materials: [0, 1, 2, 3].map(item) }))
    expect(MaterialSaveError.isInstance(error)).toBe(true)
    expect((error as MaterialSaveError).saved).toHaveLength(2)
    expect((error as MaterialSaveError).unsaved.map((m) => m.name)).toEqual(['b2', 'b3'])
  })

  test('busy (MS100003) is retried even for a save, because the service did not act', async () => {
    const { open, sent } = client()
    const credential = await open.credentials()
    const key = await putObject(credential, 'busy.txt', Buffer.from('b'))
    const fault = sim.control.faults.inject({
      match: { path: '/material-save' },
      action: { type: 'open-code', code: 'MS100003' },
    })
    const [saved] = await open.materials.save({
      materials: [{ key, name: 'busy', extension: 'txt', size: 1 }],
    })
    expect(saved?.name).toBe('busy')
    expect(fault.hits).toBe(1)
    expect(sent.filter((s) => s.path.endsWith('/material-save'))).toHaveLength(2)
  })

  test('busy that persists surfaces as a rate-limit error', async () => {
    const { open } = client({ retry: { maxRetries: 1, initialDelayMs: 1 } })
    sim.control.faults.inject({
      match: { path: '/org-info' },
      action: { type: 'open-code', code: 'MS100003' },
      times: 5,
    })
    const error = await failure(open.orgs())
    expect(ServiceRateLimitError.isInstance(error)).toBe(true)
  })

  test.each(['0', 0, '200'] as const)('success code %j is accepted', async (code) => {
    sim.control.quirks.successCode = code
    const { open } = client()
    expect((await open.orgs()).length).toBe(6)
  })
})

describe('material-save body form', () => {
  // The interface shows both forms and does not say which one the service accepts.
  const FORMS = ['top-level', 'param'] as const

  async function saveOne(form: (typeof FORMS)[number]) {
    const { open, sent } = client({ materialSaveForm: form })
    const credential = await open.credentials()
    const key = await putObject(credential, `form-${form}.txt`, Buffer.from('form'))
    const result = await open.materials
      .save({ orgId: '1001', materials: [{ key, name: `form ${form}`, extension: 'txt', size: 4 }] })
      .catch((e: unknown) => e)
    const body = JSON.parse(sent.find((s) => s.path.endsWith('/material-save'))?.body ?? '{}')
    return { result, body }
  }

  test.each(FORMS)('form %s is sent as such and accepted by a service that accepts it', async (form) => {
    sim.control.quirks.materialSaveForm = form
    const { result, body } = await saveOne(form)
    expect(Array.isArray(result) && result[0]?.name).toBe(`form ${form}`)
    const fields = form === 'param' ? body.param : body
    expect(Object.keys(body)).toEqual(form === 'param' ? ['param'] : ['orgId', 'materials'])
    expect(fields).toMatchObject({ orgId: 1001, materials: [{ name: `form ${form}` }] })
  })

  test.each([
    ['top-level', 'param'],
    ['param', 'top-level'],
  ] as const)(
    'form %s against a service that reads only %s: a parameter error that says to switch',
    async (form, accepted) => {
      sim.control.quirks.materialSaveForm = accepted
      const before = sim.control.snapshot().materials.length
      const { result } = await saveOne(form)
      expect(ServiceInvalidRequestError.isInstance(result)).toBe(true)
      errors.push(result)
      expect(result).toMatchObject({ code: 'MB100001', isRetryable: false })
      expect((result as Error).message).toContain(
        `create the open client with materialSaveForm: '${accepted}' (now '${form}')`,
      )
      expect(sim.control.snapshot().materials.length).toBe(before)
    },
  )

  test('the default is the top-level form; an unknown form is refused at creation', async () => {
    sim.control.quirks.materialSaveForm = 'top-level'
    const { open, sent } = client()
    const credential = await open.credentials()
    const key = await putObject(credential, 'default-form.txt', Buffer.from('d'))
    await open.materials.save({ materials: [{ key, name: 'd', extension: 'txt', size: 1 }] })
    expect(JSON.parse(sent.at(-1)?.body ?? '{}')).toHaveProperty('materials')
    expect(() => client({ materialSaveForm: 'params' as 'param' })).toThrow(
      /materialSaveForm: must be 'top-level' or 'param'/,
    )
    // The service takes at most 100 materials a request: a larger batch could never be saved.
    expect(() => client({ maxMaterialsPerSave: 101 })).toThrow(
      /maxMaterialsPerSave: must be an integer from 1 to 100/,
    )
    expect(() => client({ maxMaterialsPerSave: 0 })).toThrow(/maxMaterialsPerSave/)
  })
})

describe('response metadata', () => {
  const TRACE = /^[0-9a-f]{16}$/

  test('every open-area call gives its traceId and status beside the plain result', async () => {
    const { open } = client({ maxMaterialsPerSave: 1 })
    const credentials = await withResponse((call) => open.credentials(call))
    expect(credentials.data).toMatchObject({ endPoint: sim.urls.oss, accessKeyId: expect.any(String) })
    expect(credentials.response).toMatchObject({ status: 200, traceId: expect.stringMatching(TRACE) })
    const orgs = await withResponse((call) => open.orgs(call))
    expect(Array.isArray(orgs.data)).toBe(true)
    expect(orgs.response?.traceId).toMatch(TRACE)
    expect(orgs.response?.traceId).not.toBe(credentials.response?.traceId)

    const key = await putObject(credentials.data, 'traced.txt', Buffer.from('t'))
    const item = (name: string) => ({ key, name, extension: 'txt', size: 1 })
    const saved = await withResponse((call) =>
      open.materials.save({ materials: [item('t1'), item('t2')] }, call),
    )
    expect(saved.data.map((m) => m.name)).toEqual(['t1', 't2'])
    expect(saved.responses).toHaveLength(2)
    expect(saved.responses.every((r) => TRACE.test(r.traceId ?? ''))).toBe(true)
    expect(saved.response).toBe(saved.responses[1])

    const subscribed = await withResponse((call) =>
      open.folders.subscribe({ folderIds: [PERSONAL_FOLDER], callbackUrl: 'https://hooks.example/f' }, call),
    )
    expect(subscribed.data).toBeUndefined()
    expect(subscribed.response).toMatchObject({ status: 200, path: '/api/service/folder-subscribe' })
    expect(subscribed.response?.traceId).toMatch(TRACE)
    const types = await withResponse((call) => open.events.types(call))
    expect(types.response?.traceId).toMatch(TRACE)
  })

  test('the success log line carries the traceId', async () => {
    const { open } = client()
    const { response } = await withResponse((call) => open.orgs(call))
    const line = logs.filter((l) => l.startsWith('service request {')).at(-1)
    expect(line).toContain(`"traceId":"${response?.traceId}"`)
  })
})

describe('subscriptions', () => {
  test('folders.subscribe / unsubscribe; 19-digit folder ids go out exact', async () => {
    const { open, sent } = client()
    await open.folders.subscribe({
      folderIds: [PERSONAL_FOLDER, ACME_FOLDER],
      callbackUrl: 'https://hooks.example/f',
    })
    expect(sent.at(-1)?.body).toContain(`"folderIds":[${PERSONAL_FOLDER},${ACME_FOLDER}]`)
    expect(sent.at(-1)?.body).toContain('"operation":"ADD"')
    const subs = () =>
      sim.control.snapshot().folderSubscriptions.filter((s) => s.callbackUrl === 'https://hooks.example/f')
    expect(
      subs()
        .map((s) => s.folderId)
        .sort(),
    ).toEqual([PERSONAL_FOLDER, ACME_FOLDER].sort())
    await open.folders.unsubscribe({ folderIds: [ACME_FOLDER], callbackUrl: 'https://hooks.example/f' })
    expect(subs().map((s) => s.folderId)).toEqual([PERSONAL_FOLDER])
  })

  test('a subscription the service answers with false is an error, not a silent success', async () => {
    const fetch = createFakeFetch(() => openSuccess(false))
    const open = createOpenClient({
      openUrl: 'https://open.test',
      token: { type: 'Bearer', value: 'v' },
      apiKey: 'k',
      fetch,
    })
    const error = await failure(
      open.folders.subscribe({ folderIds: ['1'], callbackUrl: 'https://h.example/f' }),
    )
    // The service answered 200: a failure of its own kind, not a ServiceApiError posing as one.
    expect(SubscriptionNotAppliedError.isInstance(error)).toBe(true)
    expect(ServiceApiError.isInstance(error)).toBe(false)
    expect(error).toMatchObject({
      name: 'SubscriptionNotAppliedError',
      code: 'not_applied',
      path: '/api/service/folder-subscribe',
      operation: 'ADD',
      isRetryable: false,
    })
  })

  test('an unknown (for example rounded) folder id is refused by the service', async () => {
    const { open } = client()
    const error = await failure(
      open.folders.subscribe({ folderIds: ['1753946835000000000'], callbackUrl: 'https://h.example/f' }),
    )
    expect(ServiceNotFoundError.isInstance(error)).toBe(true)
  })

  test('events.types() lists the five events with the subscribed flag, wrapped or bare', async () => {
    const { open } = client()
    await open.events.subscribe({
      callbackUrl: 'https://hooks.example/e',
      eventTypes: ['MATERIAL_DELETED', 'MATERIAL_ADDED_TO_FOLDER'],
    })
    const wrapped = await open.events.types()
    expect(wrapped.map((t) => t.code)).toEqual([
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_METADATA_UPDATED',
      'MATERIAL_VERSION_CHANGED',
      'MATERIAL_DELETED',
    ])
    expect(wrapped.filter((t) => t.subscribed).map((t) => t.code)).toEqual([
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_DELETED',
    ])
    sim.control.quirks.bareEventTypes = true
    expect(await open.events.types()).toEqual(wrapped)
    await open.events.unsubscribe({
      callbackUrl: 'https://hooks.example/e',
      eventTypes: ['MATERIAL_DELETED', 'MATERIAL_ADDED_TO_FOLDER'],
    })
    expect((await open.events.types()).some((t) => t.subscribed)).toBe(false)
  })

  test('a team without the capability gets a clear permission error', async () => {
    const seed = defaultSeed()
    const other = await startSimulator({ seed: { ...seed, caller: { ...seed.caller, teamId: '1003' } } })
    try {
      const open = createOpenClient({
        openUrl: other.urls.open,
        token: other.credentials.openToken,
        apiKey: other.credentials.apiKey,
      })
      const error = await failure(
        open.events.subscribe({ callbackUrl: 'https://h.example/e', eventTypes: ['MATERIAL_DELETED'] }),
      )
      expect(ServicePermissionError.isInstance(error)).toBe(true)
      expect(error).toMatchObject({ reason: 'capability' })
      expect((error as Error).message).toContain('capability')
    } finally {
      await other.stop()
    }
  })
})

describe('bad input is refused before anything is sent', () => {
  type Open = ReturnType<typeof client>['open']
  test.each([
    ['no materials', (o: Open) => o.materials.save({ materials: [] })],
    [
      'a material without key',
      (o: Open) => o.materials.save({ materials: [{ name: 'a', extension: 'b', size: 1 } as never] }),
    ],
    [
      'a negative size',
      (o: Open) => o.materials.save({ materials: [{ key: 'k', name: 'a', extension: 'b', size: -1 }] }),
    ],
    [
      'tags not strings',
      (o: Open) =>
        o.materials.save({
          materials: [{ key: 'k', name: 'a', extension: 'b', size: 1, tags: [1] as never }],
        }),
    ],
    [
      'a folderId that is not an id',
      (o: Open) =>
        o.materials.save({ materials: [{ key: 'k', name: 'a', extension: 'b', size: 1, folderId: 'root' }] }),
    ],
    [
      'an unknown event code',
      (o: Open) =>
        o.events.subscribe({ callbackUrl: 'https://h.example/', eventTypes: ['MATERIAL_CREATED' as never] }),
    ],
    [
      'no event codes',
      (o: Open) => o.events.subscribe({ callbackUrl: 'https://h.example/', eventTypes: [] }),
    ],
    ['a relative callbackUrl', (o: Open) => o.folders.subscribe({ folderIds: ['1'], callbackUrl: '/hooks' })],
    ['no folder ids', (o: Open) => o.folders.subscribe({ folderIds: [], callbackUrl: 'https://h.example/' })],
  ])('%s', async (_n, call) => {
    const { open, sent } = client()
    const error = await failure(call(open))
    expect(ServiceValidationError.isInstance(error)).toBe(true)
    expect(sent).toEqual([])
  })

  test('subscription calls without an apiKey say what is missing', async () => {
    let sent = 0
    const bare = createOpenClient({
      openUrl: sim.urls.open,
      token: sim.credentials.openToken,
      fetch: (input, init) => {
        sent++
        return fetch(input, init)
      },
    })
    for (const call of [
      () => bare.events.types(),
      () => bare.folders.subscribe({ folderIds: ['1'], callbackUrl: 'https://h.example/' }),
    ]) {
      const error = await failure(call())
      expect(error).toMatchObject({
        name: 'ServiceValidationError',
        message: expect.stringContaining('apiKey: is required'),
      })
    }
    expect(sent).toBe(0)
  })
})

describe('secrets', () => {
  test('no error or log line of this suite carries the token, API key or an STS secret', async () => {
    const { open } = client()
    const credential = await open.credentials()
    expect(errors.length).toBeGreaterThan(10)
    const text = [...errors.map((e) => `${JSON.stringify(e)}\n${inspect(e, { depth: 8 })}`), ...logs].join(
      '\n',
    )
    for (const secret of [
      sim.credentials.openToken.value,
      sim.credentials.apiKey,
      credential.accessKeySecret,
      credential.securityToken,
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(errors.every((e) => ServiceError.isInstance(e))).toBe(true)
  })
})
