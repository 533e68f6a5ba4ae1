/**
 * The SQLite store's worker thread (built as its own entry, `dist/sqlite-thread.js`): opens the
 * engine with the store's settings, then answers each message. A commit's fsync blocks this
 * thread, never the receiver's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { respond, SqliteEngine } from './sqlite-engine.ts'
import type { EngineConfig, EngineMessage, EngineReply } from './sqlite-protocol.ts'

const port = parentPort
if (!port) throw new TypeError('sqlite-thread runs as a worker thread of sqliteStore')

let engine: SqliteEngine | undefined
try {
  engine = new SqliteEngine(workerData as EngineConfig)
  port.postMessage({ ready: true } satisfies EngineReply)
} catch (error) {
  port.postMessage({
    ready: false,
    error: String((error as Error | undefined)?.message ?? error),
  } satisfies EngineReply)
}
port.on('message', (message: EngineMessage) => {
  if (engine) port.postMessage(respond(engine, message))
})
