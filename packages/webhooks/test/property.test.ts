// 10,000 generated bodies: the receiver answers 2xx or 4xx, never crashes, and stores only what it acknowledged.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver } from '../src/receiver/receiver.ts'
import { memoryStoreForTests } from '../src/stores/memory.ts'
import { ALL_SAMPLES } from './samples.ts'

const token = generateWebhookToken()
const samples = Object.values(ALL_SAMPLES)

/** A sample with one slice of it replaced: truncations, broken quotes, odd values in odd places. */
const mutatedSample = fc
  .tuple(fc.constantFrom(...samples), fc.nat(), fc.nat(), fc.string({ maxLength: 20 }))
  .map(([body, a, b, insert]) => {
    const start = a % (body.length + 1)
    const end = start + (b % 20)
    return body.slice(0, start) + insert + body.slice(end)
  })

/** A known event with its fields replaced by arbitrary JSON. */
const reshapedEvent = fc
  .tuple(
    fc.constantFrom(
      'FOLDER_CONTENT_UPDATE',
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_METADATA_UPDATED',
      'MATERIAL_VERSION_CHANGED',
      'MATERIAL_DELETED',
      'SOMETHING_NEW',
    ),
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
    fc.option(fc.oneof(fc.string(), fc.integer(), fc.jsonValue({ maxDepth: 1 }))),
    fc.option(fc.oneof(fc.string(), fc.integer(), fc.constant(null))),
  )
  .map(([eventType, rest, eventId, eventTime]) =>
    JSON.stringify({
      ...rest,
      eventType,
      ...(eventId === null ? {} : { eventId }),
      ...(eventTime === null ? {} : { eventTime }),
    }),
  )

const deeplyNested = fc
  .tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('[', '{"a":'))
  .map(
    ([depth, open]) =>
      `{"eventType":"X","v":${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}}`,
  )

const body = fc.oneof(
  fc.constantFrom(...samples),
  mutatedSample,
  reshapedEvent,
  deeplyNested,
  fc.json({ maxDepth: 6 }),
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }),
  fc.constant(''),
)

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''),
  fc.string({ maxLength: 30 }),
)

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constant('POST') },
  fc.constantFrom('PUT', 'GET', 'DELETE'),
)

const path = fc.oneof(
  { weight: 10, arbitrary: fc.constant(`/webhooks/${token}`) },
  fc.constant('/webhooks/'),
  fc.constant(`/webhooks/${token}x`),
  fc.webPath(),
)

describe('any request', () => {
  it('gets 2xx or 4xx, never a crash; nothing refused is stored', async () => {
    const store = memoryStoreForTests()
    const receiver = createWebhookReceiver({
      token,
      store,
      maxBodyBytes: 8 * 1024,
      processing: { autoStart: false },
    })
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(body, contentType, method, path, async (b, type, verb, where) => {
        const before = store.size
        const headers = type === '' ? undefined : { 'content-type': type }
        const hasBody = verb !== 'GET'
        const response = await receiver.fetch(
          new Request(`https://hooks.example.com${where}`, {
            method: verb,
            ...(headers ? { headers } : {}),
            ...(hasBody ? { body: b } : {}),
          }),
        )
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        expect(response.status >= 200 && response.status < 500).toBe(true)
        if (response.status >= 400) expect(store.size).toBe(before)
        else expect(store.size - before).toBeLessThanOrEqual(1)
        await response.arrayBuffer()
      }),
      { numRuns: 10_000 },
    )
    // The run covered acknowledgements and each kind of refusal.
    for (const status of [200, 400, 404, 405]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0)
    // Whatever was stored reaches the handlers: dead letters are for handler failures only.
    receiver.onAny(() => {})
    await receiver.drain()
    const counts = await receiver.events.counts()
    expect(counts).toEqual({ pending: 0, processing: 0, done: store.size, dead: 0 })
  }, 180_000)
})
