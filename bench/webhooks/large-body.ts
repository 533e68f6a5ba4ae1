/**
 * Peak memory of one large delivery: a receiver process (node:http + webhooksNode, a no-op
 * handler) on SQLite, or on PostgreSQL with `--pg`, takes one folder callback of about `--mib` MiB
 * (default 20; about 63,000 assets) listing tens of thousands of assets; the process's peak RSS (`maxRSS`) is compared
 * with its RSS just before. Three servers in turn: `read` (a node:http handler that only reads the
 * body into one buffer: the floor), the receiver with `processing: false` (`ingest`: read, parse,
 * store), and the receiver processing it (`process`: the typed parse and the handler too). Run
 * after `pnpm build`:
 *
 *     node bench/webhooks/large-body.ts [--mib 20] [--pg]
 *
 * Prints, for each, RSS before, the peak, and the peak's growth as a multiple of the body.
 */
import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import { listeningUrl } from '../lib/listening.ts'
import { dropSchema } from '../lib/postgres.ts'

const PG_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const { values } = parseArgs({
  options: {
    mib: { type: 'string', default: '20' },
    pg: { type: 'boolean', default: false },
    child: { type: 'string' },
    mode: { type: 'string' },
  },
})

type Mode = 'read' | 'ingest' | 'process'

if (values.child) await serve(values.child, values.mode as Mode)
else
  for (const mode of ['read', 'ingest', 'process'] as const)
    await measure(Number(values.mib), values.pg, mode)

/** The server, in this process: `/memory` answers RSS now and peak (bytes), after a GC. */
async function serve(store: string, mode: Mode): Promise<void> {
  const { createServer } = await import('node:http')
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { createWebhookReceiver, postgresStore, sqliteStore } = await import('@service-sdk/webhooks')
  const { webhooksNode } = await import('@service-sdk/webhooks/node')
  const token = 'large-body-bench-token-0123456789'
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-large-'))
  const schema = `bench_large_${process.pid}`
  const receiver = createWebhookReceiver({
    token,
    store: store === 'pg' ? postgresStore(PG_URL, { schema }) : sqliteStore(join(dir, 'inbox.db')),
    maxBodyBytes: 64 * 1024 * 1024,
    processing: mode === 'process' ? {} : false,
  })
  let done = 0
  receiver.onAny(() => void done++)
  const handle =
    mode === 'read'
      ? async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
          const chunks: Buffer[] = []
          for await (const chunk of req) chunks.push(chunk as Buffer)
          done += Buffer.concat(chunks).length > 0 ? 1 : 0
          res.end('{}')
        }
      : webhooksNode(receiver)
  if (mode === 'ingest') done = -1 // counted by the answer instead
  const server = createServer((req, res) => {
    if (req.url !== '/memory') return void handle(req, res)
    globalThis.gc?.()
    res.end(
      JSON.stringify({ rss: process.memoryUsage().rss, peak: process.resourceUsage().maxRSS * 1024, done }),
    )
  })
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number }
    process.stdout.write(`listening ${address.port}\n`)
  })
  // Told to stop: leave nothing behind (the file, the schema).
  process.once('SIGTERM', async () => {
    server.close()
    try {
      await receiver.close()
      if (store === 'pg') await dropSchema(PG_URL, schema)
    } catch (error) {
      process.stderr.write(`cleaning up: ${(error as Error).message}\n`)
    }
    rmSync(dir, { recursive: true, force: true })
    process.exit(0)
  })
}

/** A folder callback of about `bytes`: assets with 19-digit ids, as the service sends them. */
function folderCallback(bytes: number): string {
  const asset = (i: number) =>
    `{"id":${1951438207513255936n + BigInt(i)},"parentIds":[1949870453162360832],"userId":"1673603133161799680","name":"IMG_${i}.jpg","downloadUrl":"https://assets.example.com/d/${i}?sig=${'x'.repeat(40)}","source":2,"extension":"jpg","size":${i},"width":1920,"height":1080,"description":null,"createUser":"1673603133161799680"}`
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const a = asset(i)
    parts.push(a)
    size += a.length + 1
  }
  return `{"eventType":"FOLDER_CONTENT_UPDATE","folderId":1949870453162360832,"eventTime":"1753946835010","type":"ADD","assets":[${parts.join(',')}]}`
}

async function measure(mib: number, pg: boolean, mode: Mode): Promise<void> {
  const args = ['--expose-gc', import.meta.filename, '--child', pg ? 'pg' : 'sqlite', '--mode', mode]
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const base = await listeningUrl(child)
    const memory = async () =>
      (await (await fetch(`${base}/memory`)).json()) as { rss: number; peak: number; done: number }
    const body = folderCallback(mib * 1024 * 1024)
    const before = await memory()
    const response = await fetch(`${base}/webhooks/large-body-bench-token-0123456789`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    if (response.status !== 200) throw new TypeError(`answered ${response.status}: ${await response.text()}`)
    let after = await memory()
    while (mode === 'process' && after.done < 1) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      after = await memory()
    }
    const MiB = 1024 * 1024
    const growth = after.peak - before.rss
    console.log(
      `${mode.padEnd(7)} ${mode === 'read' ? '' : pg ? 'postgresStore' : 'sqliteStore'}: body ${(body.length / MiB).toFixed(1)} MiB; RSS before ${(before.rss / MiB).toFixed(0)} MiB, peak ${(after.peak / MiB).toFixed(0)} MiB: +${(growth / MiB).toFixed(0)} MiB (${(growth / body.length).toFixed(1)}x the body); RSS after ${(after.rss / MiB).toFixed(0)} MiB`,
    )
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
}
