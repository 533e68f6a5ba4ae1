import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { afterAll, describe, expect, it } from 'vitest'
import { finished, freshHome, lineMatching, run, start } from './cli.ts'

const sim = useSimulator({ webhooks: { retry: { initialDelayMs: 50 } } })
const home = freshHome()
afterAll(() => home.remove())

/** The user's own endpoint: answers 500 twice, then 200; records what it got. */
async function flakyEndpoint(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = []
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (c) => {
      text += c
    })
    req.on('end', () => {
      bodies.push(text)
      res.writeHead(bodies.length <= 2 ? 500 : 200).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies, server }
}

describe('service listen', () => {
  it('subscribes itself, prints each event, forwards it until the endpoint accepts, unsubscribes on exit', async () => {
    const endpoint = await flakyEndpoint()
    const env = { ...home.env, ...sim.env }
    const listener = start(
      ['listen', '--port', '0', '--events', 'MATERIAL_DELETED', '--forward-to', endpoint.url, '--json'],
      env,
    )
    const done = finished(listener)
    const lines: Array<Record<string, unknown>> = []
    const ready = lineMatching(listener, (line) => {
      lines.push(JSON.parse(line))
      return line.includes('"ready"')
    })
    const accepted = lineMatching(
      listener,
      (line) => line.includes('"forward"') && line.includes('"ok":true'),
    )
    const { callbackUrl, tokenFile } = JSON.parse(await ready) as { callbackUrl: string; tokenFile: string }
    // The ready line shows the URL with <token> in place of the secret, and where the token is.
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/<token>$/)
    const token = readFileSync(tokenFile, 'utf8').trim()
    expect(token.length).toBeGreaterThanOrEqual(32)
    expect(sim.control.snapshot().eventSubscriptions).toMatchObject([
      { eventType: 'MATERIAL_DELETED', callbackUrl: callbackUrl.replace('<token>', token) },
    ])

    const trigger = await run(['trigger', 'MATERIAL_DELETED', '--json'], env)
    expect(trigger.code).toBe(0)
    const { eventIds } = JSON.parse(trigger.stdout) as { eventIds: string[] }
    expect(eventIds).toHaveLength(1)
    await accepted

    const event = lines.find((l) => l.type === 'event') as {
      eventType: string
      key: string
      body: { eventId: string }
    }
    expect(event).toMatchObject({ eventType: 'MATERIAL_DELETED', key: eventIds[0] })
    const forwards = lines.filter((l) => l.type === 'forward').map((l) => [l.attempt, l.status])
    expect(forwards).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ])
    // The body as the service sent it, three times, every digit of the ids kept.
    expect(new Set(endpoint.bodies).size).toBe(1)
    expect(endpoint.bodies[0]).toMatch(/"materialIds":\[19\d{17}\]/)

    listener.kill('SIGINT')
    const ended = await done
    expect(ended.code).toBe(0)
    expect(ended.stdout + ended.stderr).not.toContain(token)
    expect(sim.control.snapshot().eventSubscriptions).toEqual([])
    endpoint.server.close()
  })
})

describe('service listen: startup failures are explained', () => {
  const errorOf = (stderr: string) => (JSON.parse(stderr) as { error: Record<string, string> }).error

  it('a --host that is not an address of this machine: a usage error naming it', async () => {
    const result = await run(['listen', '--port', '0', '--host', '203.0.113.7', '--json'], home.env)
    expect(result.code).toBe(2)
    expect(errorOf(result.stderr)).toEqual({
      code: 'usage',
      message: '203.0.113.7 is not an address of this machine (EADDRNOTAVAIL)',
      hint: expect.stringContaining('--host'),
    })
  })

  it('a state directory that cannot be written: a configuration error naming it', async () => {
    const notADirectory = join(home.dir, 'state-file')
    writeFileSync(notADirectory, '')
    const result = await run(['listen', '--port', '0', '--json'], {
      ...home.env,
      XDG_STATE_HOME: notADirectory,
    })
    expect(result.code).toBe(3)
    expect(errorOf(result.stderr)).toMatchObject({
      code: 'config',
      message: expect.stringContaining(
        `Cannot write the state directory ${join(notADirectory, 'service-sdk')}`,
      ),
      hint: expect.stringContaining('XDG_STATE_HOME'),
    })
  })
})

describe('service trigger', () => {
  it('makes the simulator emit every event kind and variant, and folder changes', async () => {
    const hooks: Array<{ eventType?: string; type?: string; payload?: Record<string, unknown> }> = []
    sim.control.webhooks.deliverTo(async (request) => {
      hooks.push(JSON.parse(await request.text()))
      return new Response('{}')
    }, 'http://hooks.test/')
    const env = { ...home.env, ...sim.env }
    const url = 'http://hooks.test/all'
    const codes = [
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_METADATA_UPDATED',
      'MATERIAL_VERSION_CHANGED',
      'MATERIAL_DELETED',
    ]
    expect((await run(['subscribe', 'events', ...codes, '--url', url], env)).code).toBe(0)
    const folder = sim.control.snapshot().folders.find((f) => f.space === 't:1001')?.id as string
    expect((await run(['subscribe', 'folders', folder, '--url', url], env)).code).toBe(0)

    const cases: Array<[string, string | undefined, (h: (typeof hooks)[number]) => boolean]> = [
      ['MATERIAL_INBOUND_COMPLETED', undefined, (h) => h.eventType === 'MATERIAL_INBOUND_COMPLETED'],
      ['MATERIAL_ADDED_TO_FOLDER', undefined, (h) => h.eventType === 'MATERIAL_ADDED_TO_FOLDER'],
      ...['BASIC', 'VALIDITY', 'TAGS', 'OWNER', 'METADATA', 'CUSTOM_FIELD'].map(
        (v) =>
          ['MATERIAL_METADATA_UPDATED', v, (h: (typeof hooks)[number]) => h.payload?.changeType === v] as [
            string,
            string,
            (h: (typeof hooks)[number]) => boolean,
          ],
      ),
      ...['ADD', 'SET_COVER', 'REMOVE'].map(
        (v) =>
          ['MATERIAL_VERSION_CHANGED', v, (h: (typeof hooks)[number]) => h.payload?.action === v] as [
            string,
            string,
            (h: (typeof hooks)[number]) => boolean,
          ],
      ),
      ['MATERIAL_DELETED', 'RECYCLE', (h) => h.payload?.deleteAction === 'RECYCLE'],
      ['MATERIAL_DELETED', 'PERMANENT', (h) => h.payload?.deleteAction === 'PERMANENT'],
      ['folder.add', undefined, (h) => h.type === 'ADD'],
      ['folder.update', undefined, (h) => h.type === 'UPDATE'],
      ['folder.delete', undefined, (h) => h.type === 'DELETE'],
    ]
    for (const [event, variant, sent] of cases) {
      hooks.length = 0
      const result = await run(
        ['trigger', event, ...(variant ? ['--variant', variant] : []), '--folder', folder, '--json'],
        env,
      )
      expect([event, variant, result.code, result.stderr]).toEqual([event, variant, 0, ''])
      await sim.control.webhooks.idle()
      expect([event, variant, hooks.some(sent)]).toEqual([event, variant, true])
    }
  }, 300_000)

  it('says so when the service is not the simulator', async () => {
    const result = await run(['trigger', 'MATERIAL_DELETED'], {
      ...home.env,
      ...sim.env,
      SERVICE_BASE_URL: 'http://127.0.0.1:9',
    })
    expect(result.code).toBe(4)
    expect(result.stderr).toMatch(/Hint: Start the simulator/)
  })
})
