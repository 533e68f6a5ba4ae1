import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { WebhookError } from '../errors.ts'
import { respond, SqliteEngine } from './sqlite-engine.ts'
import type { EngineConfig, EngineMessage, EngineReply } from './sqlite-protocol.ts'
import { toWire } from './sqlite-wire.ts'

/** Where the SQLite engine runs: a worker thread, or this thread. */
export interface Channel {
  post(message: EngineMessage): void
  /** Hold the event loop open while an answer is awaited. */
  hold(awaiting: boolean): void
  terminate(): Promise<void>
}

export interface ChannelEvents {
  reply(reply: EngineReply): void
  /** The thread failed or exited. */
  lost(message: string, cause?: unknown): void
}

/**
 * The thread's module. Built, this code sits in a chunk at the root of `dist/` and the thread is
 * its own entry, `dist/stores/sqlite-thread.{js,cjs}` (see tsdown.config.ts); from source (the
 * repository's tests) it is the `.ts` file beside this one, run by Node's type stripping.
 */
function threadEntry(): URL {
  const here = import.meta.url
  if (here.endsWith('.ts')) return new URL('./sqlite-thread.ts', here)
  return new URL(here.endsWith('.cjs') ? './stores/sqlite-thread.cjs' : './stores/sqlite-thread.js', here)
}

/**
 * The process's Node options, less `--input-type` (it applies to `-e` code, and would make Node
 * refuse to load the thread's file).
 */
function threadExecArgv(): string[] {
  const args: string[] = []
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i]!
    if (arg === '--input-type') i++
    else if (!arg.startsWith('--input-type=')) args.push(arg)
  }
  return args
}

/**
 * The thread, with the process's Node options where a thread accepts them. Some it refuses
 * (V8 flags such as `--expose-gc`, with ERR_WORKER_INVALID_EXEC_ARGV): the thread then runs
 * without any, which it does not need (it imports only its own files and node: modules).
 */
function startThread(entry: URL, config: EngineConfig): Worker {
  try {
    return new Worker(entry, { workerData: config, execArgv: threadExecArgv() })
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
    return new Worker(entry, { workerData: config, execArgv: [] })
  }
}

/**
 * Messages cross as structured clones: for a batch of 64 inserts and back, about 1.7x less CPU
 * than JSON text (no escaping of the bodies, no parse on either side); inserts and outcomes as
 * arrays (sqlite-wire.ts).
 */
export function workerChannel(config: EngineConfig, events: ChannelEvents): Channel {
  const entry = threadEntry()
  if (!existsSync(entry)) {
    throw new WebhookError(
      `sqliteStore cannot find its worker thread's module (${fileURLToPath(entry)}): was @service-sdk/webhooks bundled into another file? Keep it external in your bundler, or use sqliteStore(path, { thread: 'main' }).`,
      { code: 'unsupported_runtime' },
    )
  }
  const worker = startThread(entry, config)
  let terminating = false
  let held = false
  worker.unref()
  worker.on('message', (reply: EngineReply) => events.reply(reply))
  worker.on('error', (error) => events.lost(error.message, error))
  worker.on('exit', () => {
    if (!terminating) events.lost('its worker thread exited')
  })
  return {
    post: (message) => worker.postMessage(toWire(message)),
    hold(awaiting) {
      // Called on every write and reply: touch the handle only when the answer changes.
      if (awaiting === held) return
      held = awaiting
      if (awaiting) worker.ref()
      else worker.unref()
    },
    async terminate() {
      terminating = true
      await worker.terminate()
    },
  }
}

export function mainThreadChannel(config: EngineConfig, events: ChannelEvents): Channel {
  let engine: SqliteEngine | undefined
  try {
    engine = new SqliteEngine(config)
  } catch (error) {
    // Reported on first use, as the worker reports it.
    const message = (error as Error).message
    setImmediate(() => events.reply({ ready: false, error: message }))
  }
  return {
    post(message) {
      if (!engine) return
      // Answered on the next turn, as the worker would: writes meanwhile gather for the next commit.
      const reply = respond(engine, message)
      setImmediate(() => events.reply(reply))
    },
    hold: () => {},
    terminate: async () => {},
  }
}
