// The app's code against the simulator inside the test process: MSW routes every request of the
// SDK (fetch for the APIs, node:https for the object storage) to it. No port is opened.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInProcessSimulator, FOLDERS, SPACES, simulatorEnv } from '@service-sdk/simulator'
import { simulatorHandlers } from '@service-sdk/simulator/msw'
import { ServiceConnectionError } from '@service-sdk/team'
import { generateWebhookToken } from '@service-sdk/webhooks'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Clients, clientsFromEnv, eventLog, onboard, publishAll, publishReport } from '../src/app.ts'

const sim = createInProcessSimulator({
  webhooks: { retry: { maxRetries: 5, initialDelayMs: 10, maxDelayMs: 100 } },
})
// MSW's listen() patches fetch and node:http(s) in this process; it opens no socket.
const mocks = setupServer(...simulatorHandlers(sim))
let clients: Clients
const where = { orgId: SPACES.acme, folderId: FOLDERS.acme.campaigns }
const dir = mkdtempSync(join(tmpdir(), 'msw-node-'))

beforeAll(() => mocks.listen({ onUnhandledFrame: 'error' }))
beforeEach(() => {
  sim.control.reset()
  // Made after listen(): a client keeps the fetch it was created with. Fresh ones per test: the
  // STS credentials a client holds do not survive reset().
  clients = clientsFromEnv(simulatorEnv(sim))
})
afterAll(() => {
  mocks.close()
  sim.close()
  rmSync(dir, { recursive: true, force: true })
})

function file(name: string, size: number): { path: string; bytes: Buffer } {
  const bytes = randomBytes(size)
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return { path, bytes }
}

/** Counts the object-store requests of one operation. */
const count = (op: string) =>
  sim.control.faults.inject({
    match: { target: 'oss', op },
    action: { type: 'latency', ms: 0 },
    times: Infinity,
  })

async function served(url: string): Promise<Buffer> {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

/** Servers listening in this process (the interceptors never add one). */
const listening = () =>
  (process as unknown as { _getActiveHandles(): unknown[] })
    ._getActiveHandles()
    .filter((h) => h instanceof Server)

describe('the app against the in-process simulator, through MSW', () => {
  it('team client: onboard() creates the member the service then lists', async () => {
    const id = await onboard(clients, 'hedy@acme.com')
    expect(sim.control.snapshot().users.find((u) => u.email === 'hedy@acme.com')?.id).toBe(id)
    expect((await clients.team.members.list()).map((m) => m.email)).toContain('hedy@acme.com')
  })

  it('open client: a file goes up in parts over node:https, is saved, and its download URL serves its bytes', async () => {
    const parts = count('UploadPart')
    const report = file('q3-report.pdf', 350 * 1024 + 7)
    const url = await publishReport(clients, report.path, where)
    expect(parts.hits).toBe(4)
    expect(new URL(url).origin).toBe(sim.urls.open)
    expect((await served(url)).equals(report.bytes)).toBe(true)
    const saved = sim.control.snapshot().materials.at(-1)
    expect([saved?.name, String(saved?.folderId), String(saved?.size)]).toEqual([
      'q3-report',
      FOLDERS.acme.campaigns,
      String(report.bytes.length),
    ])
  })

  it('open client: uploadMany puts every file up (small ones in one PUT, large ones in parts) and saves them', async () => {
    const puts = count('PutObject')
    const parts = count('UploadPart')
    const files = [
      file('a.bin', 10 * 1024),
      file('b.bin', 90 * 1024),
      file('c.bin', 250 * 1024),
      file('d.bin', 1),
      file('e.bin', 220 * 1024),
    ]
    const before = sim.control.snapshot().materials.length
    expect(
      await publishAll(
        clients,
        files.map((f) => f.path),
        where,
      ),
    ).toEqual([])
    expect([puts.hits, parts.hits]).toEqual([3, 6])
    const added = sim.control.snapshot().materials.slice(before)
    expect(added.map((m) => m.name).sort()).toEqual(['a', 'b', 'c', 'd', 'e'])
    for (const { path, bytes } of files) {
      const name = path.slice(dir.length + 1, -'.bin'.length)
      const asset = added.find((m) => m.name === name)
      expect((await served(`${sim.urls.open}/files/${asset?.id}/${name}.bin`)).equals(bytes), name).toBe(true)
    }
  })

  it('webhooks: the receiver gets the upload and the deletion through control.webhooks.deliverTo', async () => {
    const token = generateWebhookToken()
    const { receiver, seen } = eventLog(token)
    const remove = sim.control.webhooks.deliverTo(receiver.fetch, 'https://hooks.example.test/')
    try {
      await clients.open.events.subscribe({
        callbackUrl: `https://hooks.example.test/webhooks/${token}`,
        eventTypes: ['MATERIAL_INBOUND_COMPLETED', 'MATERIAL_DELETED'],
      })
      await publishReport(clients, file('notes.txt', 300).path, where)
      const [asset] = sim.control.snapshot().materials.slice(-1)
      sim.control.materials.delete([String(asset?.id)])
      await sim.control.webhooks.idle()
      await receiver.drain()
      expect(seen).toEqual([`inbound ${asset?.id}`, `deleted ${asset?.id}`])
      expect(sim.control.webhooks.deliveries().map((d) => d.state)).toEqual(['delivered', 'delivered'])
    } finally {
      remove()
      await receiver.close()
    }
  })

  it('a lost answer (fault reset after handling) is a network error to the client; the member exists', async () => {
    sim.control.faults.inject({
      match: { path: '/members/create' },
      action: { type: 'reset' },
      when: 'after',
    })
    const error = await onboard(clients, 'hedy@acme.com').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceConnectionError)
    expect(sim.control.snapshot().users.some((u) => u.email === 'hedy@acme.com')).toBe(true)
  })

  it('a reset before handling is a network error too, which an idempotent call retries', async () => {
    const reset = sim.control.faults.inject({
      match: { path: '/api/team/members' },
      action: { type: 'reset' },
    })
    expect((await clients.team.members.list()).length).toBeGreaterThan(0)
    expect(reset.hits).toBe(1)
  })

  it('opens no port: no server listens in this process', () => {
    expect(listening()).toEqual([])
  })

  it('(the check above sees a server that listens)', async () => {
    const server = new Server()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      expect(listening()).toEqual([server])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
