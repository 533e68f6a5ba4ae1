/**
 * Soak: a receiver at a steady rate for a long time, to see whether its memory levels off. Not
 * part of `pnpm bench` (it runs for half an hour by default). Run after `pnpm build`:
 *
 *     node bench/webhooks/soak.ts [--store sqlite|pg] [--minutes 30] [--rate 50] [--warmup 5] [--prune 5]
 *
 * The receiver runs in a process of its own (node:http + webhooksNode, processing on, a no-op
 * handler, the default retention), on SQLite (synchronous FULL) or PostgreSQL (`POSTGRES_URL`,
 * default the local database `test`, a schema of its own dropped at the end). An open-loop load
 * (paced-load.ts) offers `--rate` deliveries a second, each a distinct event. Every minute it
 * prints the receiver's RSS; its main thread's V8 heap after a full collection (in use, held, and
 * the young generation's share of what is held); the worker threads' heaps (the SQLite store's
 * thread: in use and held); the resident anonymous memory from `/proc/self/smaps` (the `brk` heap,
 * and the other mappings: malloc's thread arenas, V8's heaps); open file descriptors; the inbox's
 * size on disk; and what any delivery not answered 200 got instead (a status, or no answer).
 * Memory is sampled every 10 s. At the end: the trends after the warm-up against the target (see
 * `verdict`). Environment variables that tell causes apart: `MALLOC_ARENA_MAX=1` (one malloc
 * arena for all threads), `NODE_OPTIONS=--max-semi-space-size=2` (a small young generation).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { listeningUrl } from '../lib/listening.ts'
import { eventBody } from './event-body.ts'
import { pacedLoad } from './paced-load.ts'

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '5' },
    // Prune done events older than this many minutes, every minute (default: the receiver's own
    // retention, 7 days, so nothing is pruned in a soak and the inbox grows throughout).
    prune: { type: 'string' },
    child: { type: 'string' },
  },
})
const TOKEN = 'soak-bench-token-0123456789abcdef'
const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const MiB = 1024 * 1024
/** The environment's settings that change how memory is held, for the table's header. */
const settings = ['MALLOC_ARENA_MAX', 'NODE_OPTIONS']
  .filter((name) => process.env[name])
  .map((name) => `${name}=${process.env[name]}; `)
  .join('')
/** The target: RSS less the young generation grows by less than this per 10 minutes once warm. */
const TARGET_MIB_PER_10_MIN = 1

interface Stats {
  rss: number
  heapUsed: number
  heapTotal: number
  /** The main thread's young generation: the memory V8 holds for it (it grows under load). */
  young: number
  /** The worker threads' V8 heaps, summed: in use, and held from the system. */
  threadUsed: number
  threadHeld: number
  /** Resident anonymous memory: the `brk` heap, and every other anonymous mapping. */
  brk: number
  anon: number
  fds: number
  handled: number
}

if (values.child) await serve(values.child)
else await soak()

/** The receiver: `/stats` answers its memory, open descriptors and events handled. */
async function serve(where: string): Promise<void> {
  const { createServer } = await import('node:http')
  const { subscribe } = await import('node:diagnostics_channel')
  const { getHeapSpaceStatistics } = await import('node:v8')
  // The store's thread, seen as it starts (Node publishes every new Worker on this channel).
  const threads: Array<import('node:worker_threads').Worker> = []
  subscribe(
    'worker_threads',
    (message) => void threads.push((message as { worker: (typeof threads)[0] }).worker),
  )
  const { createWebhookReceiver, postgresStore, sqliteStore } = await import('@service-sdk/webhooks')
  const { webhooksNode } = await import('@service-sdk/webhooks/node')
  const [kind, place] = where.split(':', 2) as ['sqlite' | 'pg', string]
  const receiver = createWebhookReceiver({
    token: TOKEN,
    store: kind === 'pg' ? postgresStore(PG_URL, { schema: place }) : sqliteStore(place),
    ...(values.prune
      ? { retention: { doneOlderThanMs: Number(values.prune) * 60_000, everyMs: 60_000 } }
      : {}),
    // Its warnings and errors (a store failure answered 503, say) go to stderr, beside the table.
    logger: { debug() {}, info() {}, warn: console.warn, error: console.error },
  })
  let handled = 0
  receiver.onAny(() => void handled++)
  const handle = webhooksNode(receiver)
  const collect = (globalThis as { gc?: () => void }).gc
  const server = createServer(async (req, res) => {
    if (req.url !== '/stats') return void handle(req, res)
    // After a full collection: the heap that is still referenced, not garbage not yet collected.
    collect?.()
    const { rss, heapUsed, heapTotal } = process.memoryUsage()
    const young = getHeapSpaceStatistics()
      .filter((space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space')
      .reduce((sum, space) => sum + space.physical_space_size, 0)
    const heaps = await Promise.all(threads.map((t) => t.getHeapStatistics().catch(() => undefined)))
    const stats: Stats = {
      rss,
      heapUsed,
      heapTotal,
      young,
      threadUsed: heaps.reduce((sum, h) => sum + (h?.used_heap_size ?? 0), 0),
      threadHeld: heaps.reduce((sum, h) => sum + (h?.total_physical_size ?? 0), 0),
      ...anonymousMemory(),
      fds: readdirSync('/proc/self/fd').length,
      handled,
    }
    res.end(JSON.stringify(stats))
  })
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`)
  })
}

/** Resident anonymous memory (`/proc/self/smaps`): the `brk` heap, and other anonymous mappings. */
function anonymousMemory(): { brk: number; anon: number } {
  let brk = 0
  let anon = 0
  let kind: 'brk' | 'anon' | 'file' = 'file'
  for (const line of readFileSync('/proc/self/smaps', 'latin1').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line)
    if (mapping) kind = mapping[1] === '[heap]' ? 'brk' : mapping[1] === '' ? 'anon' : 'file'
    else if (line.startsWith('Rss:') && kind !== 'file') {
      const bytes = Number(line.split(/\s+/)[1]) * 1024
      if (kind === 'brk') brk += bytes
      else anon += bytes
    }
  }
  return { brk, anon }
}

async function soak(): Promise<void> {
  const minutes = Number(values.minutes)
  const rate = Number(values.rate)
  const warmup = Math.min(Number(values.warmup), minutes / 3)
  const usePg = values.store === 'pg'
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-soak-'))
  const file = join(dir, 'inbox.db')
  const schema = `soak_${process.pid}`
  const admin = usePg ? new pg.Pool({ connectionString: PG_URL, max: 1 }) : undefined
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      import.meta.filename,
      '--child',
      usePg ? `pg:${schema}` : `sqlite:${file}`,
      ...(values.prune ? ['--prune', values.prune] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    const base = await listeningUrl(child, 'receiver')
    const stats = async () => (await (await fetch(`${base}/stats`)).json()) as Stats
    const inboxBytes = async () => {
      if (admin) {
        const { rows } = await admin.query<{ n: string }>(
          `SELECT coalesce(pg_total_relation_size(to_regclass($1)), 0) AS n`,
          [`"${schema}".webhook_events`],
        )
        return Number(rows[0]!.n)
      }
      return ['', '-wal', '-shm'].reduce((sum, suffix) => {
        try {
          return sum + statSync(`${file}${suffix}`).size
        } catch {
          return sum
        }
      }, 0)
    }
    console.log(
      `soak: ${usePg ? 'postgresStore' : 'sqliteStore'}, ${rate} deliveries/s for ${minutes} min, warm-up ${warmup.toFixed(1)} min, ${values.prune ? `done events pruned after ${values.prune} min` : 'nothing pruned'}`,
    )
    console.log(
      `${settings}MiB: RSS; heap = main thread's in use/held, young = of which its young generation; thread = worker threads' in use/held; brk, anon = resident anonymous memory`,
    )
    console.log(
      'min  sent    ok  bad  p99 ms    RSS      heap young   thread     brk   anon  fds  inbox MiB  handled  bad: why',
    )
    const start = performance.now()
    const samples: Sample[] = []
    const sampler = setInterval(async () => {
      const s = await stats().catch(() => undefined)
      if (s)
        samples.push({
          t: (performance.now() - start) / 60_000,
          rss: s.rss,
          heap: s.heapUsed,
          young: s.young,
        })
    }, 10_000)
    let sent = 0
    for (let minute = 1; minute <= minutes; minute++) {
      const load = await pacedLoad({
        urls: [`${base}/webhooks/${TOKEN}`],
        rate,
        seconds: 60,
        connections: 8,
        body: () => eventBody('soak'),
      })
      sent += load.ok + load.bad
      const s = await stats()
      console.log(
        [
          String(minute).padStart(3),
          String(sent).padStart(5),
          String(load.ok).padStart(5),
          String(load.bad).padStart(4),
          load.p99.toFixed(0).padStart(7),
          (s.rss / MiB).toFixed(1).padStart(6),
          `${(s.heapUsed / MiB).toFixed(1)}/${(s.heapTotal / MiB).toFixed(1)}`.padStart(9),
          (s.young / MiB).toFixed(1).padStart(5),
          `${(s.threadUsed / MiB).toFixed(1)}/${(s.threadHeld / MiB).toFixed(1)}`.padStart(8),
          (s.brk / MiB).toFixed(1).padStart(7),
          (s.anon / MiB).toFixed(1).padStart(6),
          String(s.fds).padStart(4),
          ((await inboxBytes()) / MiB).toFixed(1).padStart(10),
          String(s.handled).padStart(8),
          Object.entries(load.why)
            .map(([reason, n]) => `${reason} x${n}`)
            .join(', '),
        ].join(' '),
      )
    }
    clearInterval(sampler)
    verdict(samples, warmup)
  } finally {
    child.kill()
    await new Promise((resolve) => child.once('exit', resolve))
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
      await admin.end()
    }
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One sample of the receiver's memory, at `t` minutes. */
interface Sample {
  t: number
  rss: number
  heap: number
  young: number
}

/**
 * The trends after the warm-up, in MiB per 10 minutes (least squares over the samples). The
 * target is on RSS less the main thread's young generation: V8 sizes that generation to the
 * allocation rate (it grows in steps, up to a size set by `--max-semi-space-size`), and what
 * survives there is moved to the old generation after a collection or two, so memory that is kept
 * (a leak) shows in the rest. RSS itself and the young generation's range are printed beside it.
 */
function verdict(samples: readonly Sample[], warmup: number): void {
  const warm = samples.filter((s) => s.t >= warmup)
  if (warm.length < 3) {
    console.log(`verdict: too few samples after the warm-up (${warm.length}); run longer`)
    return
  }
  const trend = (y: (s: Sample) => number) => slope(warm.map((s) => [s.t, y(s) / MiB])) * 10
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(2)}`
  const rest = trend((s) => s.rss - s.young)
  const young = warm.map((s) => s.young / MiB)
  const ok = rest < TARGET_MIB_PER_10_MIN
  console.log(`RSS samples after the warm-up, MiB: ${warm.map((s) => (s.rss / MiB).toFixed(0)).join(' ')}`)
  console.log(
    `young generation after the warm-up: ${Math.min(...young).toFixed(1)} to ${Math.max(...young).toFixed(1)} MiB`,
  )
  console.log(
    `verdict: after ${warmup.toFixed(1)} min of warm-up (${warm.length} samples), per 10 minutes: RSS ${signed(trend((s) => s.rss))} MiB, RSS less the young generation ${signed(rest)} MiB, heap in use ${signed(trend((s) => s.heap))} MiB; target (RSS less the young generation) < ${TARGET_MIB_PER_10_MIN}: ${ok ? 'PASS' : 'FAIL'}`,
  )
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length
  const mx = points.reduce((s, [x]) => s + x, 0) / n
  const my = points.reduce((s, [, y]) => s + y, 0) / n
  let num = 0
  let den = 0
  for (const [x, y] of points) {
    num += (x - mx) * (y - my)
    den += (x - mx) ** 2
  }
  return den === 0 ? 0 : num / den
}
