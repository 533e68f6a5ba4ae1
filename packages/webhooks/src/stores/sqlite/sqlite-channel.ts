import { existsSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { WebhookError } from '../../errors.ts'
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

/** `true` in the built files (tsdown.config.ts `define`); undeclared when run from source. */
declare const SQLITE_THREAD_BUILT: boolean | undefined

// The thread's module. Built, this code sits in `dist/index.{js,cjs}` and the thread is
// `dist/stores/sqlite-thread.mjs`, one ESM file that imports only node: modules (the CommonJS build
// starts it too: a thread loads its own module graph). From source (the repository's tests) it is
// the `.ts` file beside this one, run by Node's type stripping; that branch is dropped from the
// built files. Each URL is a literal beside `import.meta.url`, written where it is used: Next.js's
// Turbopack then copies the file when it bundles the package, and traces it when the package is
// external. Given a variable (`new Worker(entry)`), its tracer takes in every file of the package
// instead, the .d.cts files too, and fails the build.

/** Where the thread's module should be, for the check before starting it. */
function threadFile(): URL {
  if (typeof SQLITE_THREAD_BUILT !== 'undefined')
    return new URL('./stores/sqlite-thread.mjs', import.meta.url)
  return new URL('./sqlite-thread.ts', import.meta.url)
}

/**
 * Whether the thread's file is where the URL says. A bundler may have rewritten the URL into
 * something else: webpack (Next.js with --webpack) makes it a relative web path, not a file URL.
 */
export function threadFound(url: URL): boolean {
  return url instanceof URL && url.protocol === 'file:' && existsSync(url)
}

function newThread(config: EngineConfig, execArgv: string[]): Worker {
  const options = { workerData: config, execArgv }
  if (typeof SQLITE_THREAD_BUILT !== 'undefined')
    return new Worker(new URL('./stores/sqlite-thread.mjs', import.meta.url), options)
  return new Worker(new URL('./sqlite-thread.ts', import.meta.url), options)
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
function startThread(config: EngineConfig): Worker {
  try {
    return newThread(config, threadExecArgv())
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error
    return newThread(config, [])
  }
}

/**
 * Messages cross as structured clones: for a batch of 64 inserts and back, about 1.7x less CPU
 * than JSON text (no escaping of the bodies, no parse on either side); inserts and outcomes as
 * arrays (sqlite-wire.ts).
 */
export function workerChannel(config: EngineConfig, events: ChannelEvents): Channel {
  const entry = threadFile()
  if (!threadFound(entry)) {
    throw new WebhookError(
      `sqliteStore cannot find its worker thread's module (${String(entry)}): a bundler left it behind or made its URL a web path (Next.js with --webpack does). Keep @service-sdk/webhooks external in your bundler (Next.js: serverExternalPackages), or use sqliteStore(path, { thread: 'main' }).`,
      { code: 'unsupported_runtime' },
    )
  }
  const worker = startThread(config)
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
