// Several ingest-only receiver processes and several service-webhooks-worker processes on one
// PostgreSQL, reached through a TCP proxy, while a bounded sender posts (30% duplicates) and the
// test SIGKILLs processes, terminates every backend, and cuts, delays, stalls and black-holes the
// database. Every acknowledged event must be stored and processed, no process may exit by itself,
// transactional effects happen exactly once, and other effects twice only around a crash or fault.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postgresOrSkip } from '@service-sdk/testkit'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import { proxiedPostgres } from './tcp-proxy.ts'

const RECEIVERS = 2
const WORKERS = 2
const EVENTS = 400
/** The sender goes on while faults run, up to this many events (a fast machine sends quickly). */
const MAX_EVENTS = 3_000
const SENDERS = 12
const DUPLICATES = 0.3

const postgres = await postgresOrSkip()
const dir = mkdtempSync(join(tmpdir(), 'webhooks-pg-chaos-'))
const schema = `webhooks_chaos_${randomBytes(6).toString('hex')}`
const admin = new pg.Pool({ connectionString: postgres.url, max: 2 })
const children = new Set<ChildProcess>()
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  if (postgres.available) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  await admin.end()
  rmSync(dir, { recursive: true, force: true })
})

const FIXTURES = join(import.meta.dirname, 'fixtures')
const CLI = join(import.meta.dirname, '..', 'src', 'worker-cli.ts')
const node = (args: string[], env: Record<string, string> = {}) =>
  spawn(process.execPath, ['--conditions=@service-sdk/source', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })

function body(n: number): string {
  return `{"eventId":"chaos-${n}","eventType":"MATERIAL_DELETED","eventTime":"${1753946835010 + n}","payload":{"materialIds":[${1951438207513255936n + BigInt(n)}],"deleteAction":"RECYCLE"}}`
}

describe.skipIf(!postgres.available)('PostgreSQL deployment under faults (chaos)', () => {
  it('loses no acknowledged event; transactional effects exactly once; no process exits by itself', async () => {
    const table = 'events'
    const { proxy, app, url } = await proxiedPostgres(postgres.url, 'chaos')
    await admin.query(`CREATE SCHEMA "${schema}"`)
    await admin.query(`CREATE TABLE "${schema}".effects (key text NOT NULL, pid integer NOT NULL)`)
    const ledger = join(dir, 'ledger.txt')
    const token = generateWebhookToken()

    const killed = new Set<number>()
    const unexpectedExits: string[] = []
    const stderr: string[] = []
    const watch = (child: ChildProcess, what: string) => {
      children.add(child)
      let own = ''
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr.push(chunk.toString())
        own = (own + chunk.toString()).slice(-1500)
      })
      child.once('exit', (code, signal) => {
        if (!killed.has(child.pid!))
          unexpectedExits.push(`${what} ${child.pid} exited (${code ?? signal}); its last words: ${own}`)
      })
      return child
    }
    const receivers: Array<{ child: ChildProcess; port: number }> = []
    const startReceiver = () =>
      new Promise<void>((resolve, reject) => {
        const child = watch(node([join(FIXTURES, 'pg-receiver.ts'), url, schema, table, token]), 'receiver')
        let out = ''
        let err = ''
        child.stderr!.on('data', (chunk: Buffer) => {
          err += chunk.toString()
        })
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          const port = /listening (\d+)\n/.exec(out)?.[1]
          if (port && !receivers.some((r) => r.child === child)) {
            receivers.push({ child, port: Number(port) })
            resolve()
          }
        })
        child.once('exit', () => {
          if (!killed.has(child.pid!))
            reject(new Error(`receiver exited before listening: ${err.slice(-2000)}`))
        })
      })
    const workers: ChildProcess[] = []
    const startWorker = () => {
      const args = [CLI, join(FIXTURES, 'pg-handlers.ts'), '--schema', schema, '--table', table]
      const child = node([...args, '--statement-timeout', '2000'], {
        DATABASE_URL: url,
        CHAOS_LEDGER: ledger,
        CHAOS_EFFECTS: `"${schema}".effects`,
      })
      child.stdout!.resume()
      workers.push(watch(child, 'worker'))
    }
    const kill = (child: ChildProcess) => {
      killed.add(child.pid!)
      child.kill('SIGKILL')
    }
    const began = Date.now()
    for (let i = 0; i < WORKERS; i++) startWorker()
    await Promise.all(Array.from({ length: RECEIVERS }, startReceiver))
    const started = Date.now()

    // The sender: each event until a 2xx, and 30% of deliveries repeat an event already sent.
    const acked = new Set<number>()
    let next = 0
    const sender = async () => {
      // At least EVENTS, and for as long as the faults go on (a bounded schedule, below).
      while ((next < EVENTS || !chaosDone) && next < MAX_EVENTS) {
        const n = next > 0 && Math.random() < DUPLICATES ? Math.floor(Math.random() * next) : next++
        for (let attempt = 0; ; attempt++) {
          const live = receivers.filter((r) => !killed.has(r.child.pid!))
          const { port } = live[Math.floor(Math.random() * live.length)]!
          try {
            const response = await fetch(`http://127.0.0.1:${port}/webhooks/${token}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: body(n),
              signal: AbortSignal.timeout(10_000),
            })
            await response.arrayBuffer()
            if (response.status === 200) {
              acked.add(n)
              break
            }
            expect(response.status).toBe(503)
          } catch (error) {
            if ((error as Error).name === 'AssertionError') throw error
          }
          await new Promise((resolve) => setTimeout(resolve, 20 * Math.min(attempt + 1, 10)))
        }
      }
    }

    // Faults, one after another while the sender runs; windows in which a completed run's outcome
    // may not reach the database are noted, for the at-least-once check.
    const faults: Array<[number, number]> = []
    const note = (ms: number) => faults.push([Date.now() - 100, Date.now() + ms + 2 * 3_000 + 1_000])
    const terminateAll = () =>
      admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [app])
    let chaosDone = false
    const actions: Array<() => Promise<void>> = [
      async () => {
        const victim = receivers.splice(Math.floor(Math.random() * receivers.length), 1)[0]!
        kill(victim.child)
        await startReceiver()
      },
      async () => {
        kill(workers.splice(Math.floor(Math.random() * workers.length), 1)[0]!)
        startWorker()
      },
      async () => {
        note(0)
        await terminateAll()
      },
      async () => {
        note(0)
        proxy.cut()
      },
      async () => {
        note(1_000)
        proxy.delay(150)
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        proxy.delay(0)
      },
      async () => {
        note(1_500)
        proxy.stall(1_500)
      },
      async () => {
        note(1_500)
        proxy.blackHole(1_500)
      },
    ]
    // Every kind of fault twice (terminating every backend three times), shuffled, spread over the run.
    const schedule = [...actions, ...actions, actions[2]!].sort(() => Math.random() - 0.5)
    const chaos = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      for (const action of schedule) {
        await new Promise((resolve) => setTimeout(resolve, 700))
        await action()
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      chaosDone = true
    })()
    const progress = setInterval(() => {
      if (process.env.CHAOS_DEBUG)
        console.info(`sent ${next}, acked ${acked.size}, faults ${faults.length}, killed ${killed.size}`)
    }, 2_000)
    await Promise.all(Array.from({ length: SENDERS }, sender))
    clearInterval(progress)
    await chaos
    const sent = Date.now()

    // Everything acknowledged gets done, with the database healthy again.
    const deadline = Date.now() + 45_000
    let counts: Record<string, number> = {}
    for (;;) {
      const { rows } = await admin.query(
        `SELECT status, count(*)::int AS n FROM "${schema}".${table} GROUP BY status`,
      )
      counts = Object.fromEntries(rows.map((r) => [r.status, r.n]))
      if (process.env.CHAOS_DEBUG) console.info(counts)
      if (!counts.pending && !counts.processing) break
      if (Date.now() > deadline) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const settled = Date.now()
    const exitsDuringRun = [...unexpectedExits]
    for (const child of [...receivers.map((r) => r.child), ...workers]) kill(child)
    await proxy.close()

    expect(exitsDuringRun, stderr.join('').slice(-4000)).toEqual([])
    expect(faults.length, 'every database fault ran').toBe(2 * 5 + 1)
    expect(killed.size - RECEIVERS - WORKERS, 'every SIGKILL ran').toBe(4)
    expect(counts, 'every stored event processed').toEqual({ done: counts.done })
    const { rows } = await admin.query(`SELECT key, status FROM "${schema}".${table}`)
    const done = new Set(rows.filter((r) => r.status === 'done').map((r) => r.key as string))
    const lost = [...acked].filter((n) => !done.has(`chaos-${n}`))
    expect(lost, 'acknowledged but not processed').toEqual([])

    // Transactional effects: exactly one per stored event, whatever was killed or cut.
    const effects = await admin.query(`SELECT key, count(*)::int AS n FROM "${schema}".effects GROUP BY key`)
    const twice = effects.rows.filter((r) => r.n !== 1)
    expect(twice, 'transactional effects made twice').toEqual([])
    expect(new Set(effects.rows.map((r) => r.key))).toEqual(done)

    // Other effects (the ledger): a second run only where the first one's process was killed,
    // or its outcome could not be recorded because the database was faulted at the time.
    const ends = new Map<string, Array<{ pid: number; at: number }>>()
    for (const line of readFileSync(ledger, 'utf8').trim().split('\n')) {
      const [, key, pid, at] = line.split(' ')
      ends.set(key!, [...(ends.get(key!) ?? []), { pid: Number(pid), at: Number(at) }])
    }
    let repeated = 0
    for (const [key, runs] of ends) {
      for (const run of runs.slice(0, -1)) {
        repeated++
        const explained = killed.has(run.pid) || faults.some(([from, to]) => run.at >= from && run.at <= to)
        expect(explained, `${key} ran twice without a crash or fault`).toBe(true)
      }
    }
    for (const key of done) expect(ends.has(key), `${key} done but never run`).toBe(true)
    console.info(
      `pg chaos: ${acked.size} acknowledged of ${next}, ${done.size} done, ${killed.size - RECEIVERS - WORKERS} SIGKILLs, ` +
        `${faults.length} database faults, ${repeated} non-transactional re-runs, 0 transactional; ` +
        `start ${started - began} ms, send ${sent - started} ms, settle ${settled - sent} ms`,
    )
  }, 120_000)
})
