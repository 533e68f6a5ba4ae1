// A receiver process killed with SIGKILL again and again under load: every event that got a 2xx
// is stored and processed after restart, and only runs a crash interrupted are run again.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { startCrashReceiver } from './helpers.ts'

const ROUNDS = 6
const SENDERS = 24
const CONCURRENCY = 8 // the child's processing.concurrency

const dir = mkdtempSync(join(tmpdir(), 'webhooks-crash-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function body(n: number): string {
  // A folder callback every 5th event (its key is a content hash), asset events otherwise.
  if (n % 5 === 0) {
    return `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":1949870453162360832,"eventTime":"${1753946835010 + n}","type":"ADD","assets":[{"id":${1951438207513255936n + BigInt(n)},"size":null}]}`
  }
  return `{"eventId":"evt-${n}","eventType":"MATERIAL_DELETED","eventTime":"${1753946835010 + n}","payload":{"materialIds":[${1951438207513255936n + BigInt(n)}],"deleteAction":"RECYCLE"}}`
}

describe('crash safety', () => {
  it('loses no acknowledged event and re-runs only interrupted ones across repeated SIGKILLs', async () => {
    const db = join(dir, 'inbox.db')
    const ledger = join(dir, 'ledger.txt')
    const token = generateWebhookToken()
    const acked = new Set<number>()
    const killed = new Set<number>()
    let next = 0
    let unacked: number[] = []

    for (let round = 0; round < ROUNDS; round++) {
      const child = await startCrashReceiver(db, ledger, token)
      let running = true
      // Senders post new events, and retry the ones a crash left unacknowledged (as a real sender would).
      const retries = unacked
      unacked = []
      const sender = async () => {
        while (running) {
          const n = retries.pop() ?? next++
          try {
            const response = await fetch(`${child.url}/webhooks/${token}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: body(n),
            })
            await response.arrayBuffer()
            if (response.status === 200) acked.add(n)
            else unacked.push(n)
          } catch {
            unacked.push(n)
          }
        }
      }
      const senders = Array.from({ length: SENDERS }, sender)
      // Kill at a moment that depends on load, not on a fixed time: after some acknowledgements.
      const target = acked.size + 200 + round * 50
      while (acked.size < target) await new Promise((resolve) => setTimeout(resolve, 5))
      killed.add(child.process.pid!)
      child.process.kill('SIGKILL')
      await new Promise((resolve) => child.process.once('exit', resolve))
      running = false
      await Promise.all(senders)
    }

    // Restart once more without load; wait until every stored event is processed.
    const last = await startCrashReceiver(db, ledger, token)
    for (const n of unacked) {
      const response = await fetch(`${last.url}/webhooks/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(n),
      })
      expect(response.status).toBe(200)
      acked.add(n)
    }
    for (;;) {
      const counts = (await (await fetch(`${last.url}/status`)).json()) as Record<string, number>
      if (counts.pending === 0 && counts.processing === 0) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    last.process.kill('SIGTERM')
    await new Promise((resolve) => last.process.once('exit', resolve))

    // 1. Every acknowledged event is in the store, done.
    const store = new DatabaseSync(db, { readOnly: true })
    const rows = store.prepare('SELECT key, body, status, attempts FROM webhook_events').all() as Array<{
      key: string
      body: string
      status: string
    }>
    store.close()
    const byBody = new Map(rows.map((r) => [r.body, r]))
    const missing = [...acked].filter((n) => byBody.get(body(n))?.status !== 'done')
    expect(missing).toEqual([])
    expect(rows.every((r) => r.status === 'done')).toBe(true)

    // 2. Every stored event was run to the end; 3. a second run only where a killed process ran it before.
    expect(existsSync(ledger)).toBe(true)
    const lines = readFileSync(ledger, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' '))
    const starts = new Map<string, number[]>()
    const ended = new Set<string>()
    for (const [what, key, pid] of lines) {
      if (what === 'start') starts.set(key!, [...(starts.get(key!) ?? []), Number(pid)])
      else ended.add(key!)
    }
    for (const row of rows) expect(ended.has(row.key)).toBe(true)
    const rerunsPerKilledProcess = new Map<number, number>()
    for (const [key, pids] of starts) {
      for (const pid of pids.slice(0, -1)) {
        expect(killed.has(pid), `${key} ran twice though process ${pid} was not killed`).toBe(true)
        rerunsPerKilledProcess.set(pid, (rerunsPerKilledProcess.get(pid) ?? 0) + 1)
      }
    }
    // A crash interrupts at most the runs in flight plus those whose outcome was not yet committed.
    for (const n of rerunsPerKilledProcess.values()) expect(n).toBeLessThanOrEqual(2 * CONCURRENCY)
    expect(acked.size).toBeGreaterThan(ROUNDS * 200)
    console.info(
      `crash test: ${ROUNDS} SIGKILLs, ${acked.size} acknowledged, ${rows.length} stored, ` +
        `${[...rerunsPerKilledProcess.values()].reduce((a, b) => a + b, 0)} runs repeated after a crash`,
    )
  }, 180_000)
})
