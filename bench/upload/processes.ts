import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/**
 * `script` of this directory in a Node process of its own; arguments that are not strings go as
 * JSON. With `ipc`, the process gets a message channel (server.ts answers `cpu` on it).
 */
export function childProcess(script: string, args: unknown[], ipc = false): ChildProcess {
  return spawn(
    process.execPath,
    [join(import.meta.dirname, script), ...args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))],
    { stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? (['ipc'] as const) : [])] },
  )
}

/** The first line the process prints (its figures, or the server's URLs). */
export async function firstLine(process_: ChildProcess): Promise<string> {
  const lines = createInterface({ input: process_.stdout! })
  for await (const line of lines) return line
  throw new Error('the process printed nothing')
}

/** CPU seconds (user + system) that server.ts, started with `ipc`, has used so far. */
export async function cpuSecondsOf(server: ChildProcess): Promise<number> {
  const answer = once(server, 'message') as Promise<[NodeJS.CpuUsage]>
  server.send('cpu')
  const [used] = await answer
  return (used.user + used.system) / 1e6
}

/**
 * In a child started with `ipc`: tells the parent that a timed part starts and waits for its go,
 * so the parent can sample the server's CPU in between (once per timed part). Without a channel
 * it returns at once.
 */
async function timedStart(): Promise<void> {
  if (!process.send) return
  const go = once(process, 'message')
  process.send('timed')
  await go
}

/**
 * A timed part: tells the parent it starts (`timedStart`), runs `work`, and returns the wall and
 * CPU (user + system) seconds it took, this whole process's.
 */
export async function timed(work: () => Promise<unknown>): Promise<{ seconds: number; cpuSeconds: number }> {
  await timedStart()
  const started = performance.now()
  const cpu = process.cpuUsage()
  await work()
  const used = process.cpuUsage(cpu)
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 }
}
