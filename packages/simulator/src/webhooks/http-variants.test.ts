// The variants and quirks through the running simulator, driven only over HTTP (the service API
// and /_sim), as a test in another language would; and the drift replays under a faultSeed.
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { startReceiver, type TestReceiver } from '../../test/support/receiver.ts'
import { type RunningSimulator, startSimulator } from '../host/start.ts'

const AUTUMN = '1753946835010000003'
const DRAFTS = '1753946835010000004'

// ali-oss ships no types; this test needs one call of it.
type OssClient = { put(key: string, body: Buffer): Promise<unknown> }
const OSS = createRequire(import.meta.url)('ali-oss') as new (options: Record<string, unknown>) => OssClient

const running: Array<{ stop(): Promise<void> } | { close(): Promise<void> }> = []

afterEach(async () => {
  for (const r of running.splice(0)) await ('stop' in r ? r.stop() : r.close())
})

async function start(faultSeed?: number) {
  const sim = await startSimulator({
    webhooks: { retry: { initialDelayMs: 5 } },
    ...(faultSeed ? { faultSeed } : {}),
  })
  const receiver = await startReceiver()
  running.push(sim, receiver)
  return { sim, receiver }
}

async function call(sim: RunningSimulator, method: string, path: string, body?: string) {
  const auth = path.startsWith('/api/service')
    ? `Bearer ${sim.credentials.apiKey}`
    : `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}`
  const response = await fetch(`${sim.urls.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: auth },
    ...(body === undefined ? {} : { body }),
  })
  return JSON.parse(await response.text()) as Record<string, unknown>
}

/** Subscribe the receiver to the root, Drafts and every asset event, over the service API. */
async function subscribe(sim: RunningSimulator, receiver: TestReceiver) {
  const url = JSON.stringify(`${receiver.url}/hook`)
  const folders = await call(
    sim,
    'POST',
    '/api/service/folder-subscribe',
    `{"folderIds":[0,${DRAFTS}],"callbackUrl":${url}}`,
  )
  expect(folders).toMatchObject({ code: '0', result: true })
  const events = await call(
    sim,
    'POST',
    '/api/service/material-automation-subscribe',
    `{"callbackUrl":${url},"eventTypes":["MATERIAL_INBOUND_COMPLETED","MATERIAL_ADDED_TO_FOLDER","MATERIAL_METADATA_UPDATED","MATERIAL_VERSION_CHANGED","MATERIAL_DELETED"]}`,
  )
  expect(events).toMatchObject({ code: '0', result: true })
}

/** Every variant through POST /_sim/materials/<change>: the eventIds each queued. */
async function variants(sim: RunningSimulator) {
  const change = (name: string, args: string) =>
    call(sim, 'POST', `/_sim/materials/${name}`, `{"args":${args}}`)
  const intake = await change(
    'confirmPendingIntake',
    `[[{"name":"scan","extension":"pdf"},{"name":"memo","extension":"txt","content":"hello"}],{"orgId":"1001","folderId":"${DRAFTS}"}]`,
  )
  const [scan, memo] = sim.control.snapshot().materials.map((m) => m.id) as [string, string]
  const replaced = await change('replaceCoverOnUpload', `["${scan}","${memo}"]`)
  const renamed = await change('updateMetadata', `["${memo}",{"changeType":"BASIC","name":"renamed"}]`)
  const deleted = await change('delete', `[[],{"folderIds":["${AUTUMN}"]}]`)
  await sim.control.webhooks.idle()
  return { intake, replaced, renamed, deleted }
}

describe('variants over HTTP', () => {
  it('folder-subscribe takes folder 0, and a material-save into the root calls it back', async () => {
    const { sim, receiver } = await start()
    await subscribe(sim, receiver)
    const sts = (await call(sim, 'POST', '/open-api/standard/call/service/sts-tmp')).result as Record<
      string,
      string
    >
    const client = new OSS({
      endpoint: sim.urls.oss,
      bucket: sts.bucket,
      accessKeyId: sts.accessKeyId,
      accessKeySecret: sts.accessKeySecret,
      stsToken: sts.securityToken,
    })
    const key = `${sts.dir}root.txt`
    await client.put(key, Buffer.from('root'))
    const saved = await call(
      sim,
      'POST',
      '/open-api/standard/call/service/material-save',
      `{"orgId":1001,"materials":[{"key":"${key}","name":"root","extension":"txt","size":4}]}`,
    )
    expect(saved).toMatchObject({ code: '0' })
    await sim.control.webhooks.idle()
    const callbacks = receiver.received.filter((r) => r.body.eventType === 'FOLDER_CONTENT_UPDATE')
    expect(callbacks.map((r) => [r.body.folderId, r.body.type, r.body.orgId])).toEqual([[0, 'ADD', 1001]])
    expect(callbacks[0]?.text).toContain('"folderId":0,')
  })

  it('each variant and quirk is reachable through /_sim', async () => {
    const { sim, receiver } = await start()
    await subscribe(sim, receiver)
    const quirks = await call(sim, 'PUT', '/_sim/quirks', '{"callbackSizeUnit":"KB"}')
    expect(quirks).toMatchObject({ callbackSizeUnit: 'KB' })
    const { intake, replaced, deleted } = await variants(sim)
    const byId = (ids: unknown) =>
      (ids as string[]).map((id) => receiver.received.find((r) => r.body.eventId === id)?.body.payload)
    expect(byId(intake.eventIds)[0]).toMatchObject({ source: 'PENDING_INBOUND_CONFIRM' })
    expect(byId(replaced.eventIds)[0]).toMatchObject({ action: 'REPLACE_COVER_ON_UPLOAD' })
    expect(byId(deleted.eventIds)[0]).toMatchObject({ folderIds: [AUTUMN, DRAFTS], deleteAction: 'RECYCLE' })
    const added = receiver.received.find((r) => r.body.type === 'ADD')
    // "scan" is 4 bytes: 1 KB.
    expect(added?.body.assets).toMatchObject([{ size: 1 }, { size: 1 }])
    expect(sim.control.webhooks.deliveries().every((d) => d.state === 'delivered')).toBe(true)
  })

  it('refuses a bad change over HTTP with 400 and says why', async () => {
    const { sim } = await start()
    const response = await fetch(`${sim.urls.base}/_sim/materials/confirmPendingIntake`, {
      method: 'POST',
      body: '{"args":[[{"extension":"pdf"}]]}',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'items[0].name is required' })
    const folders = await fetch(`${sim.urls.base}/_sim/materials/delete`, {
      method: 'POST',
      body: '{"args":[[],{"folderIds":[0]}]}',
    })
    expect(folders.status).toBe(400)
    expect(sim.control.snapshot().materials).toEqual([])
  })

  it('drift (PUT /_sim/quirks) replays exactly under the same faultSeed, and differs under another', async () => {
    const run = async (faultSeed: number) => {
      const { sim, receiver } = await start(faultSeed)
      await subscribe(sim, receiver)
      await call(sim, 'PUT', '/_sim/quirks', '{"drift":0.5}')
      await variants(sim)
      // Asset events that kept a UUID eventId differ by it only.
      return receiver.received.map((r) =>
        r.text
          .replace(/"eventId":"[0-9a-f-]{36}"/, '"eventId":"uuid"')
          .replace(/"eventTime":"\d+"/, '')
          .replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, 'origin'),
      )
    }
    const first = await run(5)
    const again = await run(5)
    const other = await run(6)
    expect(again).toEqual(first)
    expect(other).not.toEqual(first)
    // Half strength: some bodies drifted, some variations did not apply.
    expect(first.some((text) => text.includes('__proto__'))).toBe(true)
    expect(first.some((text) => !text.includes('__proto__'))).toBe(true)
  })
})
