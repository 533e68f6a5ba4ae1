import { silentLogger } from '@service-sdk/core/internal'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { schemaIssues, startReceiver, type TestReceiver } from '../../../test/support/receiver.ts'
import { seededRandom } from '../../control/faults.ts'
import { SimError } from '../../http/sim-error.ts'
import { createWebhookSender, type WebhookSender, type WebhookSenderOptions } from './sender.ts'

const EPOCH = 1753946835010

let receiver: TestReceiver
let sender: WebhookSender
let logged: string[]

function makeSender(options: WebhookSenderOptions = {}) {
  sender = createWebhookSender(
    {
      timeoutMs: 2_000,
      ...options,
      retry: options.retry === false ? false : { initialDelayMs: 5, ...options.retry },
    },
    { logger: { ...silentLogger, warn: (message) => void logged.push(message) }, random: seededRandom(42) },
  )
  return sender
}

function assetEvent(n: number) {
  return {
    url: `${receiver.url}/hooks/secret-token`,
    kind: 'asset' as const,
    eventType: 'MATERIAL_DELETED',
    eventId: `evt-${n}`,
    body: { eventId: `evt-${n}`, eventType: 'MATERIAL_DELETED', eventTime: String(EPOCH), payload: { n } },
  }
}

function folderCallback(n = 0) {
  return {
    url: `${receiver.url}/folder`,
    kind: 'folder' as const,
    eventType: 'FOLDER_CONTENT_UPDATE',
    body: {
      eventType: 'FOLDER_CONTENT_UPDATE',
      folderId: 1753946835010000004n,
      eventTime: String(EPOCH + n),
      type: 'ADD',
      assets: [
        {
          id: 1900000000000000001n,
          parentIds: [1753946835010000001n, 1753946835010000004n],
          userId: '1673603133161799680',
          name: 'logo.png',
          downloadUrl: 'http://sim.test/files/1900000000000000001/logo.png',
          source: 2,
          link: 'https://example.com',
          extension: 'png',
          duration: null,
          size: 1024,
          width: 64,
          height: 32,
          description: 'Logo',
          score: 4,
          createUser: '1673603133161799680',
        },
      ],
      orgId: 1001n,
    },
  }
}

beforeEach(async () => {
  logged = []
  receiver = await startReceiver()
})

afterEach(async () => {
  // Every body sent parses with core's schemas, as the SDK's receiver reads it.
  expect(receiver.received.flatMap((r) => r.schemaIssues)).toEqual([])
  sender?.stop()
  await receiver.close()
})

describe('delivery', () => {
  it('POSTs JSON once and records the delivery', async () => {
    makeSender().enqueue(assetEvent(1))
    await sender.idle()
    expect(receiver.received).toHaveLength(1)
    const [request] = receiver.received
    expect(request?.path).toBe('/hooks/secret-token')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.body).toEqual(assetEvent(1).body)
    expect(sender.deliveries()).toEqual([
      expect.objectContaining({
        id: 'dlv_1',
        kind: 'asset',
        eventId: 'evt-1',
        state: 'delivered',
        attempts: 1,
        lastStatus: 200,
      }),
    ])
  })

  it("checks bodies with core's schemas (a check that can fail)", () => {
    expect(schemaIssues('{"eventType":"FOLDER_CONTENT_UPDATE","folderId":1}')).not.toEqual([])
    expect(schemaIssues('{"eventType":"MATERIAL_DELETED","eventTime":"1"}')).not.toEqual([])
    expect(schemaIssues(JSON.stringify(assetEvent(1).body))).toEqual([])
  })

  it('writes 19-digit ids as raw JSON integers with every digit', async () => {
    makeSender().enqueue(folderCallback())
    await sender.idle()
    const { text } = receiver.received[0] ?? { text: '' }
    expect(text).toContain('"folderId":1753946835010000004')
    expect(text).toContain('"id":1900000000000000001')
    expect(text).toContain('"parentIds":[1753946835010000001,1753946835010000004]')
    expect(text).toContain('"orgId":1001')
    expect(text).toContain('"userId":"1673603133161799680"')
  })

  it('retries a 500, a reset connection and a timeout until a 2xx, sending the same bytes', async () => {
    receiver.script(500, 'reset', 'hang', 503)
    makeSender({ timeoutMs: 300 }).enqueue(assetEvent(1))
    await sender.idle()
    expect(receiver.received).toHaveLength(5)
    expect(new Set(receiver.received.map((r) => r.text)).size).toBe(1)
    expect(sender.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 5, lastStatus: 200 })
    expect(sender.deliveries()[0]).not.toHaveProperty('lastError')
  })

  it('gives up when retry.maxRetries is spent, marks the delivery failed and logs without the URL path', async () => {
    receiver.script(500, 500, 500, 500)
    makeSender({ retry: { maxRetries: 2 } }).enqueue(assetEvent(1))
    await sender.idle()
    expect(receiver.received).toHaveLength(3)
    expect(sender.deliveries()[0]).toMatchObject({
      state: 'failed',
      attempts: 3,
      lastStatus: 500,
      lastError: 'HTTP 500',
    })
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain('failed after 3 attempts')
    expect(logged[0]).not.toContain('secret-token')
  })

  it('sends once with retry: false', async () => {
    receiver.script(500)
    makeSender({ retry: false }).enqueue(assetEvent(1))
    await sender.idle()
    expect(receiver.received).toHaveLength(1)
    expect(sender.deliveries()[0]).toMatchObject({ state: 'failed', attempts: 1 })
  })

  it('times out an attempt to a receiver that never answers', async () => {
    receiver.script('hang')
    makeSender({ retry: { maxRetries: 0 }, timeoutMs: 50 }).enqueue(assetEvent(1))
    await sender.idle()
    expect(sender.deliveries()[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'timeout after 50 ms',
    })
    expect(sender.deliveries()[0]).not.toHaveProperty('lastStatus')
  })

  it('records connection errors', async () => {
    const closed = `${receiver.url}/x`
    await receiver.close()
    makeSender({ retry: { maxRetries: 1 } }).enqueue({ ...assetEvent(1), url: closed })
    await sender.idle()
    expect(sender.deliveries()[0]).toMatchObject({ state: 'failed', attempts: 2 })
    expect(sender.deliveries()[0]?.lastError).toMatch(/ECONNREFUSED/)
    receiver = await startReceiver()
  })

  it('lets later events through while one waits to be retried', async () => {
    receiver.script(500)
    makeSender({ retry: { initialDelayMs: 50 } })
    sender.enqueue(assetEvent(1))
    sender.enqueue(assetEvent(2))
    await sender.idle()
    expect(receiver.received.map((r) => r.body.eventId)).toEqual(['evt-1', 'evt-2', 'evt-1'])
  })

  it('delivers to one URL in queue order without faults', async () => {
    makeSender()
    for (let n = 1; n <= 5; n++) sender.enqueue(assetEvent(n))
    await sender.idle()
    expect(receiver.received.map((r) => r.body.eventId)).toEqual([
      'evt-1',
      'evt-2',
      'evt-3',
      'evt-4',
      'evt-5',
    ])
  })
})

describe('faults', () => {
  it('duplicates deliveries: the same body arrives twice', async () => {
    makeSender().configure({ duplicateProbability: 1 })
    sender.enqueue(assetEvent(1))
    sender.enqueue(folderCallback())
    await sender.idle()
    expect(receiver.received).toHaveLength(4)
    expect(receiver.received.filter((r) => r.body.eventId === 'evt-1')).toHaveLength(2)
    const folder = receiver.received.filter((r) => r.path === '/folder')
    expect(folder).toHaveLength(2)
    expect(folder[0]?.text).toBe(folder[1]?.text)
    const deliveries = sender.deliveries()
    expect(deliveries.map((d) => d.duplicateOf)).toEqual([undefined, 'dlv_1', undefined, 'dlv_3'])
    expect(deliveries.every((d) => d.state === 'delivered')).toBe(true)
  })

  it('sends no duplicates at probability 0', async () => {
    makeSender().configure({ duplicateProbability: 0 })
    for (let n = 1; n <= 10; n++) sender.enqueue(assetEvent(n))
    await sender.idle()
    expect(receiver.received).toHaveLength(10)
  })

  it('reorders a window of deliveries: every one leaves its place', async () => {
    makeSender().configure({ reorderWindow: 6 })
    for (let n = 1; n <= 6; n++) sender.enqueue(assetEvent(n))
    await sender.idle()
    const order = receiver.received.map((r) => r.body.eventId)
    expect([...order].sort()).toEqual(['evt-1', 'evt-2', 'evt-3', 'evt-4', 'evt-5', 'evt-6'])
    order.forEach((id, i) => {
      expect(id).not.toBe(`evt-${i + 1}`)
    })
  })

  it('releases a partly filled reorder window after a quiet period', async () => {
    makeSender().configure({ reorderWindow: 10 })
    for (let n = 1; n <= 3; n++) sender.enqueue(assetEvent(n))
    await sender.idle()
    expect(receiver.received).toHaveLength(3)
    expect(receiver.received.map((r) => r.body.eventId)).not.toEqual(['evt-1', 'evt-2', 'evt-3'])
  })

  it('releases held deliveries when the reorder fault is switched off', async () => {
    makeSender().configure({ reorderWindow: 10 })
    sender.enqueue(assetEvent(1))
    sender.configure({ reorderWindow: 0 })
    await sender.idle()
    expect(receiver.received).toHaveLength(1)
  })

  it('sends folder eventTime as epoch ms by default, ISO 8601 with offset, or alternating', async () => {
    makeSender()
    sender.enqueue(folderCallback(0))
    sender.configure({ eventTimeFormat: 'iso' })
    sender.enqueue(folderCallback(1))
    sender.enqueue(assetEvent(1))
    sender.configure({ eventTimeFormat: 'mixed' })
    sender.enqueue(folderCallback(2))
    sender.enqueue(folderCallback(3))
    await sender.idle()
    const times = receiver.received.filter((r) => r.path === '/folder').map((r) => r.body.eventTime as string)
    expect(times[0]).toBe(String(EPOCH))
    // 1753946835010 is 2025-07-31T07:27:15.010Z.
    expect(times[1]).toBe('2025-07-31T15:27:15.011+08:00')
    expect(Date.parse(times[1] as string)).toBe(EPOCH + 1)
    expect([times[2], times[3]]).toEqual([String(EPOCH + 2), '2025-07-31T15:27:15.013+08:00'])
    // Asset events always carry epoch ms.
    expect(receiver.received.find((r) => r.body.eventId === 'evt-1')?.body.eventTime).toBe(String(EPOCH))
  })

  it('sends null-heavy folder assets, as the live sample', async () => {
    makeSender({}).configure({ nullHeavy: true })
    sender.enqueue(folderCallback())
    await sender.idle()
    const asset = (receiver.received[0]?.body.assets as Array<Record<string, unknown>> | undefined)?.[0]
    expect(asset).toEqual({
      id: '1900000000000000001',
      parentIds: ['1753946835010000001', '1753946835010000004'],
      userId: '1673603133161799680',
      name: 'logo.png',
      downloadUrl: null,
      source: 2,
      link: null,
      extension: 'png',
      duration: null,
      size: null,
      width: null,
      height: null,
      description: null,
      score: null,
      createUser: '1673603133161799680',
    })
    expect(sender.deliveries()[0]?.body).toMatchObject({ assets: [expect.objectContaining({ size: null })] })
  })

  it('refuses options out of range', () => {
    makeSender()
    expect(() => sender.configure({ retry: { maxRetries: -1 } })).toThrow(SimError)
    expect(() => sender.configure({ retry: { maxAttempts: 3 } as object })).toThrow(/maxAttempts/)
    expect(() => sender.configure({ duplicateProbability: 2 })).toThrow(/duplicateProbability/)
    expect(() => sender.configure({ eventTimeFormat: 'rfc' as 'iso' })).toThrow(/eventTimeFormat/)
    expect(() => sender.configure({ reorderWindow: -1 })).toThrow(/reorderWindow/)
    expect(() => sender.configure({ bogus: 1 } as object)).toThrow(/bogus/)
    expect(() => createWebhookSender({ timeoutMs: 0 }, { logger: silentLogger })).toThrow(/timeoutMs/)
  })
})

describe('stop', () => {
  it('cancels a waiting retry; the delivery stays pending and nothing more is sent', async () => {
    receiver.script(500)
    makeSender({ retry: { initialDelayMs: 60_000 } }).enqueue(assetEvent(1))
    await vi.waitFor(() => expect(sender.deliveries()[0]?.lastStatus).toBe(500))
    sender.stop()
    await sender.idle()
    expect(sender.deliveries()[0]).toMatchObject({ state: 'pending', attempts: 1 })
    expect(receiver.received).toHaveLength(1)
  })

  it('aborts an attempt in flight', async () => {
    receiver.script('hang')
    makeSender({ timeoutMs: 60_000 }).enqueue(assetEvent(1))
    await receiver.waitFor(1)
    sender.stop()
    await sender.idle()
    await vi.waitFor(() => expect(sender.deliveries()[0]?.lastError).toBe('stopped'))
    expect(sender.deliveries()[0]?.state).toBe('pending')
  })

  it('keeps what is enqueued after stop pending', async () => {
    makeSender().stop()
    sender.enqueue(assetEvent(1))
    await sender.idle()
    expect(sender.deliveries()[0]?.state).toBe('pending')
    expect(receiver.received).toHaveLength(0)
  })
})
