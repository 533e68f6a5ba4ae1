/**
 * The SQLite store's worker thread (built on its own, engine inlined, as
 * `dist/stores/sqlite-thread.mjs`: see tsdown.config.ts): opens the engine with the store's
 * settings, then answers each message. A commit's fsync blocks this
 * thread, never the receiver's event loop. Outside a worker thread, importing it does nothing.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads'
import { respond, SqliteEngine } from './sqlite-engine.ts'
import type { EngineConfig, EngineReply } from './sqlite-protocol.ts'
import { fromWire, type WireMessage } from './sqlite-wire.ts'

function serve(port: MessagePort, config: EngineConfig): void {
  let engine: SqliteEngine
  try {
    engine = new SqliteEngine(config)
  } catch (error) {
    const reply: EngineReply = { ready: false, error: String((error as Error | undefined)?.message ?? error) }
    port.postMessage(reply)
    return
  }
  port.postMessage({ ready: true } satisfies EngineReply)
  port.on('message', (message: WireMessage) => port.postMessage(respond(engine, fromWire(message))))
}

if (parentPort) serve(parentPort, workerData as EngineConfig)
