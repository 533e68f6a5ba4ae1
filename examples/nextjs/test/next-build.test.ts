import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type RunningSimulator, simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// The whole app as it ships: `next build`, `next start`, and requests to its routes. Opt-in
// (NEXT_BUILD_SMOKE=1): the build takes about three minutes on the project's shared 2-core machine.
const enabled = process.env.NEXT_BUILD_SMOKE === '1'
const exec = promisify(execFile)
const dir = join(import.meta.dirname, '..')
const next = join(dir, 'node_modules', 'next', 'dist', 'bin', 'next')
const WEBHOOK_TOKEN = 'whk_0123456789abcdef0123456789abcdef'

let sim: RunningSimulator
let server: ChildProcess
let origin: string

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

beforeAll(async () => {
  if (!enabled) return
  sim = await startSimulator()
  const env = { ...process.env, ...simulatorEnv(sim), WEBHOOK_TOKEN, NEXT_TELEMETRY_DISABLED: '1' }
  await exec(process.execPath, [next, 'build'], { cwd: dir, env, timeout: 600_000 })
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, [next, 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: dir, env })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (
      await fetch(`${origin}/login`, { redirect: 'manual' }).then(
        () => true,
        () => false,
      )
    )
      return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error('next start did not answer within 60 s')
}, 700_000)

afterAll(async () => {
  server?.kill()
  await sim?.stop()
})

describe.skipIf(!enabled)('next build + next start', () => {
  test('the page, the sign-in, the upload proxy route and the webhook route answer', async () => {
    const signIn = await fetch(`${origin}/login?user=alice`, { redirect: 'manual' })
    expect(signIn.status).toBe(303)
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string
    expect(await (await fetch(origin, { headers: { cookie } })).text()).toContain('Choose a folder')
    const sts = `${origin}/api/upload/open-api/standard/call/service/sts-tmp`
    expect((await fetch(sts, { method: 'POST' })).status).toBe(401)
    const credential = await fetch(sts, { method: 'POST', headers: { cookie } })
    expect(credential.status).toBe(200)
    expect(await credential.json()).toMatchObject({
      code: '0',
      result: { dir: expect.stringMatching(/\/u[\w-]{22}\/$/) },
    })
    const event = {
      eventId: 'evt-next-1',
      eventType: 'MATERIAL_DELETED',
      eventTime: '1753946835010',
      payload: { materialIds: ['1'], deleteAction: 'RECYCLE' },
    }
    const hook = await fetch(`${origin}/api/webhooks/${WEBHOOK_TOKEN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    })
    expect(await hook.json()).toMatchObject({ received: true })
  })
})
