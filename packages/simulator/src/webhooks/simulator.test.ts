import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver, type TestReceiver } from '../../test/support/receiver.ts'
import { type RunningSimulator, startSimulator } from '../host/start.ts'

const DRAFTS = '1753946835010000004'

// ali-oss ships no types; this test needs one call of it.
type OssClient = { put(key: string, body: Buffer): Promise<unknown> }
const OSS = createRequire(import.meta.url)('ali-oss') as new (options: Record<string, unknown>) => OssClient

let sim: RunningSimulator
let receiver: TestReceiver

beforeAll(async () => {
  sim = await startSimulator({ webhooks: { retry: { initialDelayMs: 5 } } })
  receiver = await startReceiver()
})

afterAll(async () => {
  await sim?.stop()
  await receiver?.close()
})

async function call(path: string, headers: Record<string, string>, body?: string) {
  const response = await fetch(`${sim.urls.open}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  })
  return response.text()
}

describe('webhooks through the running simulator', () => {
  it('subscribe, upload, save, delete: the subscriber receives the callback and the asset events', async () => {
    const apiKey = { authorization: `Bearer ${sim.credentials.apiKey}` }
    const token = { authorization: `${sim.credentials.openToken.type} ${sim.credentials.openToken.value}` }
    const url = `${receiver.url}/hook`
    await call(
      '/api/service/material-automation-subscribe',
      apiKey,
      JSON.stringify({
        callbackUrl: url,
        eventTypes: ['MATERIAL_INBOUND_COMPLETED', 'MATERIAL_ADDED_TO_FOLDER', 'MATERIAL_DELETED'],
      }),
    )
    await call('/api/service/folder-subscribe', apiKey, `{"folderIds":[${DRAFTS}],"callbackUrl":"${url}"}`)

    const sts = JSON.parse(await call('/open-api/standard/call/service/sts-tmp', token)).result
    const client = new OSS({
      endpoint: sim.urls.oss,
      bucket: sts.bucket,
      accessKeyId: sts.accessKeyId,
      accessKeySecret: sts.accessKeySecret,
      stsToken: sts.securityToken,
    })
    const key = `${sts.dir}hello.txt`
    await client.put(key, Buffer.from('hello'))
    const saved = await call(
      '/open-api/standard/call/service/material-save',
      token,
      `{"orgId":1001,"materials":[{"key":"${key}","folderId":${DRAFTS},"name":"hello","extension":"txt","size":5}]}`,
    )
    const id = /"id":(\d+)/.exec(saved)?.[1] as string
    expect(id).toMatch(/^\d{19}$/)
    const eventIds = sim.control.materials.delete([id])
    await sim.control.webhooks.idle()

    const bodies = receiver.received.map((r) => r.body)
    expect(bodies.map((b) => [b.eventType, b.type])).toEqual([
      ['FOLDER_CONTENT_UPDATE', 'ADD'],
      ['MATERIAL_INBOUND_COMPLETED', undefined],
      ['MATERIAL_ADDED_TO_FOLDER', undefined],
      ['FOLDER_CONTENT_UPDATE', 'DELETE'],
      ['MATERIAL_DELETED', undefined],
    ])
    expect(bodies[4]?.eventId).toBe(eventIds[0])
    const asset = (bodies[0]?.assets as Array<Record<string, unknown>> | undefined)?.[0]
    expect(asset).toMatchObject({ id, name: 'hello.txt', size: 5, userId: '1673603133161799680' })
    // The downloadUrl serves the uploaded bytes.
    expect(await (await fetch(asset?.downloadUrl as string)).text()).toBe('hello')
    expect(receiver.received[0]?.text).toContain(`"id":${id}`)
    expect(receiver.received.flatMap((r) => r.schemaIssues)).toEqual([])
    expect(sim.control.webhooks.deliveries().every((d) => d.state === 'delivered')).toBe(true)
  })
})
