import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { type RunningSimulator, simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { nextBin } from './next-build.setup'

// The whole app as it ships: `next build` (started in the background when the run starts, by
// test/next-build.setup.ts), `next start`, and requests to its routes over HTTP. The SDK packages
// are workspace links here, which Next.js bundles into the server code (it keeps only packages
// under node_modules external): this checks that the bundled webhooks package still finds and
// starts its SQLite thread.
const dir = join(import.meta.dirname, '..')
const WEBHOOK_TOKEN = 'whk_0123456789abcdef0123456789abcdef'
/** Generous: about 1.5 minutes on a quiet 2-core machine, several times that under load. */
const BUILD_WAIT_MS = 900_000

let sim: RunningSimulator
let server: ChildProcess | undefined
let serverOutput = ''
let origin: string

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits for the build the setup started; throws with the end of its output when it failed. */
async function builtApp(): Promise<void> {
  const { log, outcome } = inject('nextBuild')
  const deadline = Date.now() + BUILD_WAIT_MS
  while (!existsSync(outcome)) {
    if (Date.now() > deadline) throw new Error(`next build did not end within ${BUILD_WAIT_MS / 1000} s`)
    await pause(500)
  }
  const { code, signal } = JSON.parse(readFileSync(outcome, 'utf8')) as {
    code: number | null
    signal: string | null
  }
  if (code !== 0) {
    const output = readFileSync(log, 'utf8').split('\n').slice(-60).join('\n')
    throw new Error(`next build failed (exit ${code ?? signal}):\n${output}`)
  }
}

async function startApp(env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: dir,
    env,
  })
  server.stdout?.on('data', (chunk) => (serverOutput += chunk))
  server.stderr?.on('data', (chunk) => (serverOutput += chunk))
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const up = await fetch(`${origin}/login`, { redirect: 'manual' }).then(
      () => true,
      () => false,
    )
    if (up) return
    await pause(250)
  }
  throw new Error(`next start did not answer within 60 s:\n${serverOutput}`)
}

beforeAll(async () => {
  await builtApp()
  sim = await startSimulator()
  await startApp({
    ...process.env,
    ...simulatorEnv(sim),
    SERVICE_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    NEXT_TELEMETRY_DISABLED: '1',
  })
}, BUILD_WAIT_MS + 120_000)

afterAll(async () => {
  server?.kill()
  await sim?.stop()
})

describe('next build + next start', () => {
  test('the picker page, the sign-in, the upload proxy route and the webhook route answer', async () => {
    const signIn = await fetch(`${origin}/login?user=alice`, { redirect: 'manual' })
    expect(signIn.status).toBe(303)
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string
    expect(await (await fetch(origin, { headers: { cookie } })).text()).toContain('Choose a folder')
    const sign = (headers: Record<string, string>) =>
      fetch(`${origin}/api/upload/oss/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ requests: [] }),
      })
    expect((await sign({})).status).toBe(401)
    expect((await sign({ cookie: 'demo-session=alice' })).status).toBe(401)
    const target = await sign({ cookie })
    expect(target.status).toBe(200)
    expect(await target.json()).toMatchObject({
      code: '0',
      result: { dir: expect.stringMatching(/\/u[\w-]{22}\/$/) },
    })
    // A page on another origin, with the user's cookie: refused before the session is read.
    expect((await sign({ cookie, origin: 'http://evil.test' })).status).toBe(403)
    const event = {
      eventId: `evt-next-${Date.now()}`,
      eventType: 'MATERIAL_DELETED',
      eventTime: '1753946835010',
      payload: { materialIds: ['1'], deleteAction: 'RECYCLE' },
    }
    const deliver = () =>
      fetch(`${origin}/api/webhooks/${WEBHOOK_TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
      })
    // Stored by the SQLite store's worker thread: the first answer, then the duplicate.
    expect(await (await deliver()).json(), serverOutput).toEqual({ received: true })
    expect(await (await deliver()).json(), serverOutput).toEqual({ received: true, duplicate: true })
  })
})
