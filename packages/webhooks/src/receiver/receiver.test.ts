import { describe, expect, it, vi } from 'vitest'
import { BASE, captureLogger, manualClock, post } from '../../test/helpers.ts'
import * as S from '../../test/samples.ts'
import { WebhookError, type WebhookHandlerError } from '../errors.ts'
import { generateWebhookToken } from '../intake/token.ts'
import { memoryStoreForTests } from '../stores/memory.ts'
import type { WebhookStore } from '../stores/store.ts'
import { createWebhookReceiver, type WebhookReceiverOptions } from './receiver.ts'

const token = generateWebhookToken()

function setup(options: Partial<WebhookReceiverOptions> = {}) {
  const store = memoryStoreForTests()
  const clock = manualClock()
  const { logger, lines } = captureLogger()
  const receiver = createWebhookReceiver({
    token,
    store,
    clock,
    logger,
    ...options,
    processing: { autoStart: false, ...options.processing },
  })
  return { receiver, store, clock, lines }
}

describe('acknowledgement', () => {
  it('answers 2xx only once the event is stored', async () => {
    const inner = memoryStoreForTests()
    const { promise: gate, resolve: release } = Promise.withResolvers<void>()
    const store: WebhookStore = {
      ...inner,
      insert: async (event) => {
        await gate
        return inner.insert(event)
      },
    }
    const { receiver } = setup({ store })
    let answered = false
    const response = post(receiver, token, S.deletedRecycle).then((r) => {
      answered = true
      return r
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(answered).toBe(false)
    release()
    expect((await response).status).toBe(200)
    expect(await inner.get('evt_deleted_1')).toBeDefined()
  })

  it('answers 503 (so the sender retries) when the store fails, and reports it', async () => {
    const inner = memoryStoreForTests()
    const store: WebhookStore = { ...inner, insert: () => Promise.reject(new Error('disk full')) }
    const { receiver } = setup({ store })
    const errors: WebhookError[] = []
    receiver.onError((error) => void errors.push(error))
    const response = await post(receiver, token, S.deletedRecycle)
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('1')
    expect(errors.map((e) => e.code)).toEqual(['store_unavailable'])
  })

  it('acknowledges a duplicate eventId without processing it again', async () => {
    const { receiver, store } = setup()
    const seen: string[] = []
    receiver.on('MATERIAL_DELETED', (event) => void seen.push(event.eventId))
    const first = await post(receiver, token, S.deletedRecycle)
    expect(await first.json()).toEqual({ received: true })
    await receiver.drain()
    const again = await post(receiver, token, S.deletedRecycle)
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ received: true, duplicate: true })
    await receiver.drain()
    expect(seen).toEqual(['evt_deleted_1'])
    expect(store.size).toBe(1)
  })

  it('de-duplicates folder callbacks by content, whatever the whitespace or key order', async () => {
    const { receiver, store } = setup()
    const runs: string[] = []
    receiver.on('FOLDER_CONTENT_UPDATE', (_event, { key }) => void runs.push(key))
    const reordered = JSON.stringify(
      Object.fromEntries(Object.entries(JSON.parse(S.folderDelete.replaceAll(S.BIG, '1'))).reverse()),
    )
    await post(receiver, token, S.folderDelete)
    await post(receiver, token, ` ${S.folderDelete}\n`)
    await post(receiver, token, reordered)
    await post(receiver, token, JSON.stringify(JSON.parse(reordered)))
    await receiver.drain()
    // The original and its whitespace variant are one event; the reordered body (other ids) is another.
    expect(store.size).toBe(2)
    expect(runs).toHaveLength(2)
    expect(runs.every((k) => k.startsWith('sha256:'))).toBe(true)
  })

  it('runs different callbacks of the same folder separately', async () => {
    const { receiver, store } = setup()
    await post(receiver, token, S.folderNullHeavyEpoch)
    await post(receiver, token, S.folderNullHeavyEpoch.replace('"type":"ADD"', '"type":"UPDATE"'))
    expect(store.size).toBe(2)
  })
})

describe('the Content-Type', () => {
  it('is never a reason to refuse a JSON object: none, text/plain, a form type are stored, the unusual type said once', async () => {
    const { receiver, store, lines } = setup()
    const types = [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'application/json']
    for (const [i, type] of types.entries()) {
      const response = await receiver.fetch(
        new Request(`${BASE}/${token}`, {
          method: 'POST',
          ...(type ? { headers: { 'content-type': type } } : {}),
          body: new TextEncoder().encode(`{"eventId":"evt_${i}","eventType":"MATERIAL_DELETED"}`),
        }),
      )
      expect(response.status).toBe(200)
    }
    expect(store.size).toBe(4)
    expect(lines.filter((line) => line.includes('Content-Type'))).toEqual([
      expect.stringMatching(/^info .*Content-Type null/),
    ])
  })
})

describe('bad input is refused and nothing is stored', () => {
  const cases: Array<[string, () => Request, number]> = [
    ['a wrong token', () => req(generateWebhookToken(), S.addedToFolder), 404],
    ['no token segment', () => new Request('https://hooks.example.com/', init(S.addedToFolder)), 404],
    [
      'the token as a query parameter',
      () => new Request(`https://h.example.com/webhooks?t=${token}`, init('{}')),
      404,
    ],
    ['GET', () => new Request(`https://h.example.com/webhooks/${token}`), 405],
    ['a form', () => req(token, 'a=1', 'application/x-www-form-urlencoded'), 400],
    ['text that is not JSON', () => req(token, 'hello', 'text/plain'), 400],
    ['malformed JSON', () => req(token, '{"eventType":"MATERIAL_DELETED",'), 400],
    ['an empty body', () => req(token, ''), 400],
    ['a JSON array', () => req(token, '[{"eventType":"MATERIAL_DELETED"}]'), 400],
    [
      'deep nesting',
      () => req(token, `{"eventType":"X","a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`),
      400,
    ],
    ['invalid UTF-8', () => req(token, new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d])), 400],
    [
      'a body over the default 25 MiB',
      () => req(token, `{"eventType":"X","pad":"${'x'.repeat(25 * 1024 * 1024)}"}`),
      413,
    ],
  ]

  function init(body: BodyInit, contentType = 'application/json'): RequestInit {
    return { method: 'POST', headers: { 'content-type': contentType }, body }
  }
  function req(t: string, body: BodyInit, contentType?: string) {
    return new Request(`https://hooks.example.com/webhooks/${t}`, init(body, contentType))
  }

  it.each(cases)('%s', async (_name, request, status) => {
    const { receiver, store, lines } = setup()
    const response = await receiver.fetch(request())
    expect(response.status).toBe(status)
    expect(store.size).toBe(0)
    if (status === 404) expect(await response.text()).toBe('Not Found')
    else if (status !== 405) expect((await response.json()).error).toBeTypeOf('string')
    expect(lines.join('\n')).not.toContain(token)
  })

  it('logs a body refused as too large as an error: its event will not get in until the cap is raised', async () => {
    const { receiver, lines } = setup({ maxBodyBytes: 1024 })
    const response = await post(receiver, token, `{"eventId":"big","pad":"${'x'.repeat(2048)}"}`)
    expect(response.status).toBe(413)
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([
      expect.stringContaining('refused a delivery (413 payload_too_large)'),
    ])
  })

  it('a sender that goes away mid-body: request_aborted, logged at debug only, nothing stored', async () => {
    const { receiver, store, lines } = setup()
    async function* cut() {
      yield new TextEncoder().encode('{"eventId":"evt_cut","pad":"')
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
    }
    const receipt = await receiver.receive({
      method: 'POST',
      url: `/webhooks/${token}`,
      contentType: 'application/json',
      body: cut(),
    })
    expect(receipt).toMatchObject({ status: 400, error: { code: 'request_aborted' } })
    expect(store.size).toBe(0)
    expect(lines).toEqual([
      expect.stringMatching(/^debug webhooks: refused a delivery \(400 request_aborted\)/),
    ])
  })

  it('refuses a body larger than maxBodyBytes while streaming, even without Content-Length', async () => {
    const { receiver, store } = setup({ maxBodyBytes: 1024 })
    let pulled = 0
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled += 512
          controller.enqueue(new Uint8Array(512).fill(0x20))
        },
      },
      { highWaterMark: 0 },
    )
    const response = await receiver.fetch(
      new Request(`https://h.example.com/webhooks/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    )
    expect(response.status).toBe(413)
    expect(pulled).toBeLessThan(4096)
    expect(store.size).toBe(0)
  })
})

describe('the token', () => {
  it('accepts every token of a rotation', async () => {
    const next = generateWebhookToken()
    const { receiver, store } = setup({ token: [next, token] })
    expect((await post(receiver, token, S.addedToFolder)).status).toBe(200)
    expect((await post(receiver, next, S.deletedRecycle)).status).toBe(200)
    expect(store.size).toBe(2)
  })

  it('can be turned off, explicitly', async () => {
    const { receiver } = setup({ token: false })
    expect((await post(receiver, 'anything', S.addedToFolder)).status).toBe(200)
  })

  it('is required', () => {
    expect(() => createWebhookReceiver({} as WebhookReceiverOptions)).toThrow(/token/)
    expect(() => createWebhookReceiver({ token: undefined as unknown as string })).toThrow(/token/)
  })

  it('never reaches logs, errors or stored rows', async () => {
    const { receiver, store, lines } = setup({ processing: { retry: { maxRetries: 0 } } })
    const errors: string[] = []
    receiver.onError((error) => void errors.push(JSON.stringify(error.toJSON()), error.message))
    receiver.on('MATERIAL_DELETED', () => {
      throw new Error(`failed calling https://me.example.com/webhooks/${token}`)
    })
    await post(receiver, token, S.deletedRecycle)
    await post(receiver, generateWebhookToken(), S.deletedRecycle)
    await receiver.drain()
    const [dead] = await store.list({ status: 'dead' })
    expect(dead?.lastError).toContain('[REDACTED]')
    const everything = [...lines, ...errors, JSON.stringify(await store.list())].join('\n')
    expect(everything).not.toContain(token)
  })
})

describe('processing', () => {
  it('routes each event to the handlers for its type and to onAny, with a context', async () => {
    const { receiver, lines } = setup()
    const calls: string[] = []
    receiver.on('MATERIAL_DELETED', (event, ctx) => {
      calls.push(`deleted ${event.payload.deleteAction} ${ctx.key} #${ctx.attempt}`)
    })
    receiver.on(
      ['MATERIAL_ADDED_TO_FOLDER', 'MATERIAL_VERSION_CHANGED'],
      (event) => void calls.push(`multi ${event.eventType}`),
    )
    receiver.onUnknown('MATERIAL_SHARED', (event) => void calls.push(`unknown ${event.eventType}`))
    receiver.onAny((event) => void calls.push(`any ${event.eventType}`))
    expect(lines.filter((l) => l.includes('does not know'))).toEqual([
      expect.stringContaining('"eventType":"MATERIAL_SHARED"'),
    ])
    for (const body of [S.deletedPermanent, S.addedToFolder, S.versionRemove, S.unknownEventType]) {
      expect((await post(receiver, token, body)).status).toBe(200)
    }
    await receiver.drain()
    expect(calls.sort()).toEqual(
      [
        'deleted PERMANENT evt_deleted_2 #1',
        'multi MATERIAL_ADDED_TO_FOLDER',
        'multi MATERIAL_VERSION_CHANGED',
        'unknown MATERIAL_SHARED',
        'any MATERIAL_DELETED',
        'any MATERIAL_ADDED_TO_FOLDER',
        'any MATERIAL_VERSION_CHANGED',
        'any MATERIAL_SHARED',
      ].sort(),
    )
    expect(await receiver.events.counts()).toMatchObject({ done: 4, pending: 0 })
  })

  it('marks an event without handlers done, and says so once in the log', async () => {
    const { receiver, lines } = setup()
    await post(receiver, token, S.deletedPermanent)
    await post(receiver, token, S.deletedRecycle)
    await receiver.drain()
    expect(await receiver.events.counts()).toMatchObject({ done: 2 })
    expect(lines.filter((l) => l.includes('no handler'))).toHaveLength(1)
  })

  it('retries a failing handler with growing delays, then succeeds', async () => {
    const { receiver, clock } = setup({ processing: { retry: { initialDelayMs: 1000, maxDelayMs: 60_000 } } })
    const errors: WebhookHandlerError[] = []
    receiver.onError((error) => void errors.push(error as WebhookHandlerError))
    let runs = 0
    receiver.on('MATERIAL_DELETED', (_event, { attempt }) => {
      runs++
      if (attempt < 3) throw new Error(`flaky ${attempt}`)
    })
    await post(receiver, token, S.deletedRecycle)
    await receiver.drain()
    expect(runs).toBe(1)
    const first = await receiver.events.get('evt_deleted_1')
    // Jitter is fixed at the middle by the test clock: 3/4 of 1000 ms.
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Error: flaky 1' })
    expect(first!.nextAttemptAt - clock.now()).toBe(750)
    clock.advance(749)
    await receiver.drain()
    expect(runs).toBe(1)
    clock.advance(1)
    await receiver.drain()
    expect(runs).toBe(2)
    expect((await receiver.events.get('evt_deleted_1'))!.nextAttemptAt - clock.now()).toBe(1500)
    clock.advance(1500)
    await receiver.drain()
    expect(runs).toBe(3)
    expect(await receiver.events.get('evt_deleted_1')).toMatchObject({ status: 'done', attempts: 3 })
    expect(errors.map((e) => [e.code, e.attempt, e.deadLettered])).toEqual([
      ['handler_failed', 1, false],
      ['handler_failed', 2, false],
    ])
    expect(WebhookError.isInstance(errors[0])).toBe(true)
  })

  it('moves an event to the dead letters after maxRetries retries, with its last error; requeue runs it again', async () => {
    const { receiver, clock } = setup({ processing: { retry: { maxRetries: 2, initialDelayMs: 10 } } })
    const errors: WebhookHandlerError[] = []
    receiver.onError((error) => void errors.push(error as WebhookHandlerError))
    let broken = true
    let done = 0
    receiver.on('MATERIAL_DELETED', () => {
      if (broken) throw new TypeError('cannot read x')
      done++
    })
    await post(receiver, token, S.deletedRecycle)
    for (let i = 0; i < 3; i++) {
      await receiver.drain()
      clock.advance(1000)
    }
    const [dead] = await receiver.events.list({ status: 'dead' })
    expect(dead).toMatchObject({ key: 'evt_deleted_1', attempts: 3, lastError: 'TypeError: cannot read x' })
    expect(errors.at(-1)).toMatchObject({ deadLettered: true, attempt: 3, retryAt: undefined })
    expect(errors.at(-1)?.message).toMatch(/requeue/)
    clock.advance(86_400_000)
    await receiver.drain()
    expect(errors).toHaveLength(3)
    broken = false
    expect(await receiver.events.requeue()).toBe(1)
    await receiver.drain()
    expect(done).toBe(1)
    expect(await receiver.events.get('evt_deleted_1')).toMatchObject({ status: 'done', attempts: 1 })
  })

  it('delivers a known event that breaks its schema, with warnings on the context, logged once', async () => {
    const { receiver, lines } = setup()
    const seen: Array<{ deleteAction: unknown; warnings: unknown }> = []
    receiver.on('MATERIAL_DELETED', (event, { warnings }) => {
      seen.push({ deleteAction: event.payload.deleteAction, warnings })
    })
    const body = S.deletedPermanent.replace('"deleteAction":"PERMANENT"', '"deleteAction":{"x":1}')
    expect((await post(receiver, token, body)).status).toBe(200)
    await post(receiver, token, body.replace('evt_deleted_2', 'evt_deleted_3'))
    await receiver.drain()
    expect(seen).toEqual([
      {
        deleteAction: { x: 1 },
        warnings: [
          { path: 'payload.deleteAction', value: { x: 1 }, message: expect.stringMatching(/string/) },
        ],
      },
      expect.objectContaining({ deleteAction: { x: 1 } }),
    ])
    expect(await receiver.events.counts()).toMatchObject({ done: 2, dead: 0 })
    // Two events, one field and value: one line.
    expect(lines.filter((l) => l.includes('payload.deleteAction'))).toHaveLength(1)
  })

  it('with strict, dead-letters a known event that breaks its schema at once, with the reason', async () => {
    const { receiver } = setup({ strict: true })
    const handler = vi.fn()
    receiver.on('MATERIAL_DELETED', handler)
    receiver.onAny(handler)
    const body = S.deletedPermanent.replace('"deleteAction":"PERMANENT"', '"deleteAction":"ARCHIVE"')
    expect((await post(receiver, token, body)).status).toBe(200)
    await receiver.drain()
    expect(handler).not.toHaveBeenCalled()
    const [dead] = await receiver.events.list({ status: 'dead' })
    expect(dead).toMatchObject({ attempts: 1 })
    expect(dead?.lastError).toMatch(/payload\.deleteAction: a value this SDK does not know.*"ARCHIVE"/)
  })

  it('runs an event again when its worker crashed (its lease expired), counting the attempt', async () => {
    const { receiver, store, clock } = setup({ processing: { leaseMs: 5000 } })
    const attempts: number[] = []
    receiver.on('MATERIAL_DELETED', (_e, { attempt }) => void attempts.push(attempt))
    await post(receiver, token, S.deletedRecycle)
    // Another process claimed it and died.
    await store.claim({ owner: 'dead-process', limit: 1, now: clock.now(), leaseMs: 5000 })
    await receiver.drain()
    expect(attempts).toEqual([])
    clock.advance(5000)
    await receiver.drain()
    expect(attempts).toEqual([2])
  })

  it('dead-letters an event whose worker died on it every time, without running it again', async () => {
    const { receiver, store, clock } = setup({ processing: { retry: { maxRetries: 1 } } })
    const handler = vi.fn()
    receiver.on('MATERIAL_DELETED', handler)
    await post(receiver, token, S.deletedRecycle)
    for (let i = 0; i < 2; i++) {
      await store.claim({ owner: `crash-${i}`, limit: 1, now: clock.now(), leaseMs: 10 })
      clock.advance(10)
    }
    await receiver.drain()
    expect(handler).not.toHaveBeenCalled()
    const [dead] = await receiver.events.list({ status: 'dead' })
    expect(dead?.lastError).toMatch(/lease expired on 2 attempts/)
  })

  it('keeps the lease of a slow handler, so no other worker runs it meanwhile', async () => {
    // Store time is a manual clock: the lease expires only when the test moves it, however late
    // the renewal timer fires on a busy machine.
    const store = memoryStoreForTests()
    const clock = manualClock()
    const runs: string[] = []
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const make = (name: string) => {
      const receiver = createWebhookReceiver({
        token,
        store,
        clock,
        processing: { autoStart: false, leaseMs: 150, pollIntervalMs: 10 },
      })
      receiver.on('MATERIAL_DELETED', async () => {
        runs.push(name)
        await released
      })
      return receiver
    }
    const a = make('a')
    const b = make('b')
    await post(a, token, S.deletedRecycle)
    const draining = a.drain()
    await vi.waitFor(() => expect(runs).toEqual(['a']))
    const claimedUntil = (await store.get('evt_deleted_1'))!.leaseUntil!
    // Past the first lease: only a renewal (every leaseMs / 3 while the handler runs) keeps it.
    clock.advance(100)
    await vi.waitFor(async () =>
      expect((await store.get('evt_deleted_1'))!.leaseUntil).toBe(clock.now() + 150),
    )
    clock.advance(100)
    expect(clock.now()).toBeGreaterThan(claimedUntil)
    b.start()
    await new Promise((resolve) => setTimeout(resolve, 50))
    release()
    await draining
    await b.stop()
    expect(runs).toEqual(['a'])
    expect(await store.get('evt_deleted_1')).toMatchObject({ status: 'done', attempts: 1 })
  })

  it('runs at most `concurrency` events at once', async () => {
    const { receiver } = setup({ processing: { concurrency: 3 } })
    let running = 0
    let peak = 0
    receiver.onAny(async () => {
      peak = Math.max(peak, ++running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      running--
    })
    for (let i = 0; i < 20; i++) {
      await post(receiver, token, S.deletedRecycle.replace('evt_deleted_1', `evt_${i}`))
    }
    await receiver.drain()
    expect(peak).toBe(3)
    expect((await receiver.events.counts()).done).toBe(20)
  })

  it('frees a slot when the handler returns, so outcomes being recorded do not hold it (up to 2 × concurrency)', async () => {
    const inner = memoryStoreForTests()
    const { promise: gate, resolve: release } = Promise.withResolvers<void>()
    let settling = 0
    // Recording outcomes waits (a slow commit): the next events must run meanwhile.
    const store: WebhookStore = {
      ...inner,
      settle: async (...args) => {
        settling++
        await gate
        return inner.settle(...args)
      },
    }
    const { receiver } = setup({ store, processing: { concurrency: 1 } })
    const ran: string[] = []
    receiver.onAny((_event, { key }) => void ran.push(key))
    for (let i = 0; i < 3; i++)
      await post(receiver, token, S.deletedRecycle.replace('evt_deleted_1', `evt_${i}`))
    const draining = receiver.drain()
    // The second runs while the first's outcome is recorded; no more than 2 × concurrency wait so.
    await vi.waitFor(() => expect(ran).toHaveLength(2))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(ran).toHaveLength(2)
    expect(settling).toBe(2)
    release()
    await draining
    expect((await receiver.events.counts()).done).toBe(3)
  })

  it('claims again once outcomes are requested, before they commit, on a store whose writes apply in order', async () => {
    const inner = memoryStoreForTests()
    const { promise: gate, resolve: release } = Promise.withResolvers<void>()
    let unrecorded = 0
    let claimsBehindOutcomes = 0
    // A commit in flight: outcomes wait for it, and a claim requested after them waits behind
    // them (as SQLite applies one queue in order), so it sees them.
    const store: WebhookStore = {
      ...inner,
      writesInOrder: true,
      settle: async (...args) => {
        unrecorded++
        await gate
        return inner.settle(...args)
      },
      claim: async (options) => {
        if (unrecorded > 0) {
          claimsBehindOutcomes++
          await gate
        }
        return inner.claim(options)
      },
    }
    const { receiver } = setup({ store, processing: { concurrency: 1 } })
    const ran: string[] = []
    receiver.onAny((_event, { key }) => void ran.push(key))
    for (let i = 0; i < 2; i++)
      await post(receiver, token, S.deletedRecycle.replace('evt_deleted_1', `evt_${i}`))
    const draining = receiver.drain()
    // Both run (2 × concurrency may await their outcome); the next claim joins their commit.
    await vi.waitFor(() => expect(claimsBehindOutcomes).toBe(1))
    expect(ran).toHaveLength(2)
    expect(unrecorded).toBe(2)
    release()
    await draining
    expect((await receiver.events.counts()).done).toBe(2)
  })

  it('keeps claiming when events arrive while every worker is busy (no drain)', async () => {
    const store = memoryStoreForTests()
    const receiver = createWebhookReceiver({
      token,
      store,
      processing: { concurrency: 1, pollIntervalMs: 60_000 },
    })
    const seen = new Set<string>()
    let release!: () => void
    const busy = new Promise<void>((resolve) => {
      release = resolve
    })
    receiver.onAny(async (_event, { key }) => {
      if (key === 'evt_0') await busy
      seen.add(key)
    })
    await post(receiver, token, S.deletedRecycle.replace('evt_deleted_1', 'evt_0'))
    await vi.waitFor(() => expect(store.list({ status: 'processing' })).resolves.toHaveLength(1))
    // Stored while the only worker is busy: the wake-up finds no capacity.
    for (let i = 1; i < 5; i++)
      await post(receiver, token, S.deletedRecycle.replace('evt_deleted_1', `evt_${i}`))
    release()
    await vi.waitFor(() => expect(seen.size).toBe(5))
    await receiver.close()
  })

  it('starts by itself after the handlers are registered, and stops cleanly', async () => {
    const store = memoryStoreForTests()
    await store.insert({
      key: 'evt_deleted_2',
      eventType: 'MATERIAL_DELETED',
      body: S.deletedPermanent,
      receivedAt: 1,
    })
    const receiver = createWebhookReceiver({ token, store })
    const seen: string[] = []
    receiver.on('MATERIAL_DELETED', (event) => void seen.push(event.eventId))
    await vi.waitFor(() => expect(seen).toEqual(['evt_deleted_2']))
    await post(receiver, token, S.deletedRecycle)
    await vi.waitFor(() => expect(seen).toEqual(['evt_deleted_2', 'evt_deleted_1']))
    await receiver.close()
    expect((await post(receiver, token, S.addedToFolder)).status).toBe(503)
  })

  it('prunes done events older than asked', async () => {
    const { receiver, clock } = setup()
    await post(receiver, token, S.deletedRecycle)
    await receiver.drain()
    clock.advance(1000)
    await post(receiver, token, S.deletedPermanent)
    await receiver.drain()
    expect(await receiver.events.prune({ olderThanMs: 500 })).toBe(1)
    expect((await receiver.events.list()).map((e) => e.key)).toEqual(['evt_deleted_2'])
  })

  it('reports every failing handler of an event', async () => {
    const { receiver } = setup()
    const errors: WebhookHandlerError[] = []
    receiver.onError((error) => void errors.push(error as WebhookHandlerError))
    receiver.on('MATERIAL_DELETED', () => {
      throw new Error('one')
    })
    receiver.onAny(async () => {
      throw new Error('two')
    })
    await post(receiver, token, S.deletedRecycle)
    await receiver.drain()
    expect(errors[0]?.message).toMatch(/Error: one; Error: two/)
  })

  it('survives an onError handler that throws', async () => {
    const { receiver, lines } = setup()
    receiver.onError(() => {
      throw new Error('bad onError')
    })
    receiver.on('MATERIAL_DELETED', () => {
      throw new Error('bad handler')
    })
    await post(receiver, token, S.deletedRecycle)
    await receiver.drain()
    expect(lines.some((l) => l.includes('onError handler failed'))).toBe(true)
  })
})

describe('store failures and secrets', () => {
  it('redacts the token from a store_unavailable error (message, toJSON, stack, cause) and from logs', async () => {
    const inner = memoryStoreForTests()
    const leaky = () => Promise.reject(new Error(`connection to /webhooks/${token} reset`))
    const store: WebhookStore = { ...inner, insert: leaky, claim: leaky }
    const { receiver, lines } = setup({ store })
    const errors: WebhookError[] = []
    receiver.onError((error) => void errors.push(error))
    expect((await post(receiver, token, S.deletedRecycle)).status).toBe(503)
    receiver.start()
    await vi.waitFor(() => expect(errors).toHaveLength(2))
    await receiver.stop()
    for (const error of errors) {
      expect(error.code).toBe('store_unavailable')
      const seen = [
        error.message,
        JSON.stringify(error),
        error.stack,
        String(error.cause),
        JSON.stringify(error.cause),
      ]
      expect(seen.join('\n')).not.toContain(token)
      expect(error.message).toContain('reset')
    }
    expect(lines.join('\n')).not.toContain(token)
    expect(lines.join('\n')).toContain('reset')
  })

  it('logs wrong-token refusals at most once a minute, with a count', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const { receiver, lines } = setup()
      const wrong = generateWebhookToken()
      for (let i = 0; i < 50; i++) expect((await post(receiver, wrong, S.deletedRecycle)).status).toBe(404)
      expect(lines.filter((l) => l.includes('unknown token'))).toHaveLength(1)
      vi.advanceTimersByTime(60_000)
      const warned = lines.filter((l) => l.includes('unknown token'))
      expect(warned).toHaveLength(2)
      expect(warned[1]).toContain('refused 49 request')
    } finally {
      vi.useRealTimers()
    }
  })

  it('only stores with processing: false (an ingest-only receiver)', async () => {
    const store = memoryStoreForTests()
    const receiver = createWebhookReceiver({ token, store, processing: false })
    const seen: string[] = []
    receiver.onAny((_event, { key }) => void seen.push(key))
    expect((await post(receiver, token, S.deletedRecycle)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seen).toEqual([])
    expect((await store.get('evt_deleted_1'))?.status).toBe('pending')
    await receiver.close()
  })

  it('reports readiness from the store, its reason redacted', async () => {
    const inner = memoryStoreForTests()
    let down = false
    const store: WebhookStore = {
      ...inner,
      ping: async () => {
        if (down) throw new Error(`unreachable ${token}`)
      },
    }
    const { receiver } = setup({ store })
    expect(await receiver.readiness()).toEqual({ ready: true })
    down = true
    const state = await receiver.readiness()
    expect(state).toMatchObject({ ready: false, reason: expect.stringContaining('unreachable') })
    expect(JSON.stringify(state)).not.toContain(token)
  })
})

describe('an outcome the store cannot record', () => {
  it('is reported as store_unavailable, not as a handler failure or a dead letter, and runs again', async () => {
    const inner = memoryStoreForTests()
    let failSettle = true
    const store: WebhookStore = {
      ...inner,
      settle: (...args) =>
        failSettle ? Promise.reject(new Error('connection lost')) : inner.settle(...args),
    }
    const { receiver, clock } = setup({ store, processing: { leaseMs: 1_000 } })
    const errors: WebhookError[] = []
    receiver.onError((error) => void errors.push(error))
    let runs = 0
    receiver.onAny(() => void runs++)
    expect((await post(receiver, token, S.deletedRecycle)).status).toBe(200)
    await receiver.drain()
    expect(errors.map((e) => [e.code, e.name])).toEqual([['store_unavailable', 'WebhookError']])
    failSettle = false
    clock.advance(1_001)
    await receiver.drain()
    expect(runs).toBe(2)
    expect((await inner.get('evt_deleted_1'))?.status).toBe('done')
  })
})
