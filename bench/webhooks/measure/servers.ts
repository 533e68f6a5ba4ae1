/**
 * The webhooks bench's servers, each in a process of its own: the SDK's receivers and the no-op
 * Hono handler (../server.ts) and the peers a user would write instead (../peers/). Every one
 * prints `listening <port>` and answers GET /cpu with its process's CPU time (user + system, µs:
 * the kernel's work for it included, fsync and socket writes).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { listeningUrl } from '../../lib/listening.ts'

/** `receiver`: SQLite FULL, processing on; `pg`: ingest-only on postgresStore; peers in ../peers/. */
export type ServerKind = 'receiver' | 'noop' | 'pg' | 'express-sqlite' | 'hono-pg'

export interface Running {
  kind: ServerKind
  child: ChildProcess
  url: string
}

export interface Postgres {
  url: string
  schema: string
}

function command(kind: ServerKind, token: string, postgres?: Postgres): string[] {
  const webhooks = join(import.meta.dirname, '..')
  const database = postgres ? [postgres.url, postgres.schema] : []
  if (kind === 'express-sqlite') return [join(webhooks, 'peers', 'express-sqlite.ts'), token]
  if (kind === 'hono-pg') return [join(webhooks, 'peers', 'hono-pg.ts'), token, ...database]
  return [join(webhooks, 'server.ts'), kind, token, ...(kind === 'pg' ? database : [])]
}

export async function startServer(kind: ServerKind, token: string, postgres?: Postgres): Promise<Running> {
  const child = spawn(process.execPath, command(kind, token, postgres), {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    return { kind, child, url: await listeningUrl(child, `${kind} server`) }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

export async function stopServer({ child }: Running): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** The server process's CPU time so far, user + system, µs. */
export async function cpuMicros(server: Running): Promise<number> {
  return ((await (await fetch(`${server.url}/cpu`)).json()) as { micros: number }).micros
}

/**
 * Wait until a processing receiver has processed its backlog (its processing is part of its cost
 * per event, and must not steal CPU from the next run). Polls `/backlog` (two index lookups),
 * not `/status` (counts() reads every stored event's index entry: its CPU, growing with the
 * table, would be charged to the receiver). Other servers have no backlog.
 */
export async function settled(server: Running, processing: boolean): Promise<void> {
  if (server.kind !== 'receiver' || !processing) return
  while (((await (await fetch(`${server.url}/backlog`)).json()) as { backlog: boolean }).backlog)
    await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Events a receiver stored, in all. */
export async function storedCount(server: Running): Promise<number> {
  const counts = (await (await fetch(`${server.url}/status`)).json()) as Record<string, number>
  return Object.values(counts).reduce((a, b) => a + b, 0)
}
