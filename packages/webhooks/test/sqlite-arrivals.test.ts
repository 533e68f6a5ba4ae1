// Events received while the in-process worker has room are stored already leased to it and run
// from what was received (src/worker/arrivals.ts): no claim writes or reads their rows.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { createWebhookReceiver, type WebhookReceiver } from '../src/receiver/receiver.ts'
import { sqliteStore } from '../src/stores/sqlite/sqlite.ts'
import { SqliteEngine } from '../src/stores/sqlite/sqlite-engine.ts'
import type { WriteOp } from '../src/stores/sqlite/sqlite-protocol.ts'
import { startCrashReceiver } from './helpers.ts'

const dir = mkdtempSync(join(tmpdir(), 'webhooks-arrivals-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const file = () => join(dir, `inbox-${++files}.db`)
const token = generateWebhookToken()

function body(n: number): string {
  return `{"eventId":"evt-${n}","eventType":"MATERIAL_DELETED","eventTime":"${1753946835010 + n}","payload":{"materialIds":[${1951438207513255936n + BigInt(n)}],"deleteAction":"RECYCLE"}}`
}

const deliver = (receiver: WebhookReceiver, n: number) =>
  receiver.receive({
    method: 'POST',
    url: `/webhooks/${token}`,
    contentType: 'application/json',
    body: body(n),
  })

describe('events leased at insert (sqliteStore)', () => {
  it('runs an event received while the worker has room from what was received: stored leased, never claimed', async () => {
    const write = vi.spyOn(SqliteEngine.prototype, 'write')
    const receiver = createWebhookReceiver({ token, store: sqliteStore(file(), { thread: 'main' }) })
    const runs: Array<{ id: string; attempt: number }> = []
    receiver.onAny(
      (event, { attempt }) => void runs.push({ id: (event as { eventId: string }).eventId, attempt }),
    )
    await new Promise((resolve) => setImmediate(resolve)) // started
    expect((await deliver(receiver, 1)).status).toBe(200)
    await expect
      .poll(async () => (await receiver.events.get('evt-1'))?.status, { timeout: 10_000 })
      .toBe('done')
    expect(runs).toEqual([{ id: 'evt-1', attempt: 1 }])
    expect(await receiver.events.get('evt-1')).toMatchObject({ status: 'done', attempts: 1 })
    const ops = write.mock.calls.flatMap(([batch]) => batch)
    const results = write.mock.results.flatMap((r, i) =>
      write.mock.calls[i]![0].map((op, j) => [op, (r.value as { values: unknown[] }).values[j]] as const),
    )
    expect(ops.find((op): op is Extract<WriteOp, { t: 'insert' }> => op.t === 'insert')).toMatchObject({
      key: 'evt-1',
      leaseOwner: expect.any(String),
    })
    // Claims may run (the worker looks for other work), but none returned the event.
    expect(results.filter(([op, value]) => op.t === 'claim' && (value as unknown[]).length > 0)).toEqual([])
    write.mockRestore()
    await receiver.close()
  })

  it('parses the body of an event it runs as it arrives once: the run reads what admission parsed', async () => {
    const receiver = createWebhookReceiver({ token, store: sqliteStore(file(), { thread: 'main' }) })
    const ids: string[] = []
    receiver.onAny(
      (event) => void ids.push((event as { payload: { materialIds: string[] } }).payload.materialIds[0]!),
    )
    await new Promise((resolve) => setImmediate(resolve)) // started
    const parse = vi.spyOn(JSON, 'parse')
    expect((await deliver(receiver, 2)).status).toBe(200)
    await expect
      .poll(async () => (await receiver.events.get('evt-2'))?.status, { timeout: 10_000 })
      .toBe('done')
    const parsesOfBody = parse.mock.calls.filter(
      ([text]) => typeof text === 'string' && text.includes('"evt-2"'),
    )
    parse.mockRestore()
    expect(parsesOfBody).toHaveLength(1)
    // Read losslessly all the same: the id keeps every digit.
    expect(ids).toEqual([String(1951438207513255936n + 2n)])
    await receiver.close()
  })

  it('stores pending what arrives while the worker is full, an event with an order key, and a duplicate unchanged', async () => {
    const write = vi.spyOn(SqliteEngine.prototype, 'write')
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const receiver = createWebhookReceiver({
      token,
      store: sqliteStore(file(), { thread: 'main' }),
      processing: { concurrency: 1 },
      orderBy: (event) => ((event as { eventId?: string }).eventId === 'evt-99' ? 'k' : null),
    })
    const runs: string[] = []
    receiver.onAny(async (event) => {
      runs.push((event as { eventId: string }).eventId)
      await gate
    })
    await new Promise((resolve) => setImmediate(resolve))
    // Room for four (four times concurrency 1): the fifth and sixth are stored pending.
    for (let n = 0; n < 6; n++) expect((await deliver(receiver, n)).status).toBe(200)
    expect((await deliver(receiver, 99)).status).toBe(200)
    expect((await deliver(receiver, 0)).body).toContain('"duplicate":true')
    const inserts = write.mock.calls
      .flatMap(([batch]) => batch)
      .filter((op): op is Extract<WriteOp, { t: 'insert' }> => op.t === 'insert')
    expect(inserts.map((op) => [op.key, op.leaseOwner !== null])).toEqual([
      ['evt-0', true],
      ['evt-1', true],
      ['evt-2', true],
      ['evt-3', true],
      ['evt-4', false],
      ['evt-5', false],
      ['evt-99', false],
      ['evt-0', false], // a duplicate, while the worker is full
    ])
    release()
    await receiver.drain()
    expect(runs.sort()).toEqual(['evt-0', 'evt-1', 'evt-2', 'evt-3', 'evt-4', 'evt-5', 'evt-99'])
    expect(await receiver.events.counts()).toEqual({ pending: 0, processing: 0, done: 7, dead: 0 })
    write.mockRestore()
    await receiver.close()
  })

  it('never runs an event twice with two receivers on one file (two connections), each receiving', async () => {
    const path = file()
    const runs = new Map<string, number>()
    const open = () => {
      const receiver = createWebhookReceiver({
        token,
        store: sqliteStore(path),
        processing: { concurrency: 4 },
      })
      receiver.onAny((event) => {
        const id = (event as { eventId: string }).eventId
        runs.set(id, (runs.get(id) ?? 0) + 1)
      })
      return receiver
    }
    const [a, b] = [open(), open()]
    await new Promise((resolve) => setImmediate(resolve))
    // Each event sent to both, as a sender retrying on another instance would: one stores it.
    const sender = async (from: number) => {
      for (let n = from; n < 300; n += 8) {
        const [x, y] = await Promise.all([deliver(a, n), deliver(b, n)])
        expect([x.status, y.status]).toEqual([200, 200])
      }
    }
    await Promise.all(Array.from({ length: 8 }, (_, i) => sender(i)))
    await Promise.all([a.drain(), b.drain()])
    await expect.poll(async () => (await a.events.counts()).done, { timeout: 10_000 }).toBe(300)
    expect(runs.size).toBe(300)
    expect([...runs.values()].every((n) => n === 1)).toBe(true)
    await Promise.all([a.close(), b.close()])
  }, 30_000)
})

const start = (db: string, ledger: string, hang: boolean) =>
  startCrashReceiver(db, ledger, token, hang ? ['hang'] : [])

describe('events leased at insert, across a crash', () => {
  it('runs again after SIGKILL of the process holding their lease (once it expires)', async () => {
    const db = join(dir, 'crash.db')
    const ledger = join(dir, 'crash-ledger.txt')
    // Its handlers start and never finish: the events stay leased to it.
    const first = await start(db, ledger, true)
    for (let n = 0; n < 5; n++) {
      const response = await fetch(`${first.url}/webhooks/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(n),
      })
      expect(response.status).toBe(200)
    }
    await expect
      .poll(() => readFileSync(ledger, 'utf8').trim().split('\n').length, { timeout: 10_000 })
      .toBe(5)
    const inbox = new DatabaseSync(db, { readOnly: true })
    const leased = inbox.prepare('SELECT status, attempts FROM webhook_events').all()
    inbox.close()
    expect(leased).toEqual(Array.from({ length: 5 }, () => ({ status: 'processing', attempts: 1 })))
    first.process.kill('SIGKILL')
    await new Promise((resolve) => first.process.once('exit', resolve))

    const second = await start(db, ledger, false)
    await expect
      .poll(
        async () => ((await (await fetch(`${second.url}/status`)).json()) as Record<string, number>).done,
        { timeout: 20_000 },
      )
      .toBe(5)
    second.process.kill('SIGTERM')
    await new Promise((resolve) => second.process.once('exit', resolve))
    const lines = readFileSync(ledger, 'utf8').trim().split('\n')
    for (let n = 0; n < 5; n++) {
      expect(lines).toContain(`start evt-${n} ${first.process.pid} 1`)
      expect(lines).toContain(`end evt-${n} ${second.process.pid} 2`)
    }
  }, 40_000)
})
