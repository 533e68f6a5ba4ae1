import { rm } from 'node:fs/promises'
import { createOpenClient } from '@service-sdk/open'
import { type RunningSimulator, simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { POST as upload } from '../app/api/upload/[...path]/route'
import { POST as webhook } from '../app/api/webhooks/[token]/route'
import { GET as login } from '../app/login/route'

const APP = 'http://app.test'
const WEBHOOK_TOKEN = 'whk_0123456789abcdef0123456789abcdef'
let sim: RunningSimulator

beforeAll(async () => {
  sim = await startSimulator()
  Object.assign(process.env, simulatorEnv(sim), { SERVICE_WEBHOOK_TOKEN: WEBHOOK_TOKEN })
})

afterAll(async () => {
  await sim?.stop()
  await rm('.data', { recursive: true, force: true })
})

async function signIn(user: string): Promise<string> {
  const answer = login(new Request(`${APP}/login?user=${user}`))
  expect(answer.status).toBe(303)
  return (answer.headers.get('set-cookie') ?? '').split(';')[0] as string
}

const sign = (cookie?: string) =>
  upload(
    new Request(`${APP}/api/upload/oss/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ requests: [] }),
    }),
  )

test('the upload route answers 401 without a session, and nothing else', async () => {
  const answer = await sign()
  expect(answer.status).toBe(401)
  expect(await answer.json()).toMatchObject({ code: 'unauthorized' })
})

test("a forged session cookie is refused: a user id without its signature, or with another user's", async () => {
  expect((await sign('demo-session=alice')).status).toBe(401)
  const [name, value] = (await signIn('mallory')).split('=') as [string, string]
  const signature = value.slice(value.lastIndexOf('.'))
  expect((await sign(`${name}=alice${signature}`)).status).toBe(401)
  expect((await sign(`${name}=${value}`)).status).toBe(200)
})

test("a signed-in browser's client uploads through the route; the asset serves the bytes", async () => {
  const cookie = await signIn('alice')
  const open = createOpenClient({
    proxyUrl: `${APP}/api/upload`,
    headers: { cookie },
    fetch: async (input, init) => upload(new Request(input, init)),
  })
  const bytes = new TextEncoder().encode('hello from the Next.js example')
  const asset = await open.upload(new Blob([bytes]), { name: 'hello', extension: 'txt' }).done()
  expect(new URL(asset.accessUrl).origin).toBe(new URL(sim.urls.open).origin)
  expect(new Uint8Array(await (await fetch(asset.accessUrl)).arrayBuffer())).toEqual(bytes)
})

test('the webhook route stores an event with the right token and answers 404 to a wrong one', async () => {
  const body = JSON.stringify({
    eventId: 'evt-1',
    eventType: 'MATERIAL_ADDED_TO_FOLDER',
    eventTime: '1753946835010',
    payload: { materialIds: ['1'], folderIds: ['2'] },
  })
  const post = (token: string) =>
    webhook(
      new Request(`${APP}/api/webhooks/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    )
  const stored = await post(WEBHOOK_TOKEN)
  expect(stored.status).toBe(200)
  expect(await stored.json()).toMatchObject({ received: true })
  expect(await (await post(WEBHOOK_TOKEN)).json()).toMatchObject({ received: true, duplicate: true })
  expect((await post('whk_wrong_token_000000000000000000')).status).toBe(404)
})
