import type { ByteSource } from '../store/store.ts'

/** The part of Node's IncomingMessage we read (present as `env.incoming` under @hono/node-server). */
interface NodeIncoming extends AsyncIterable<Uint8Array> {
  readableDidRead: boolean
  url?: string
}

/** Node's request, when this app is served by @hono/node-server and nothing has read the body yet. */
export function nodeIncoming(env: unknown): NodeIncoming | undefined {
  const incoming = (env as { incoming?: Partial<NodeIncoming> } | undefined)?.incoming
  if (!incoming || typeof incoming[Symbol.asyncIterator] !== 'function') return undefined
  return incoming as NodeIncoming
}

/**
 * The request body as it arrives. Under @hono/node-server it is read straight from the Node
 * request: the Web-stream wrapper Hono would otherwise build (Readable.toWeb under a pull-based
 * ReadableStream, a few promises per chunk) cost 20-25% more server CPU per uploaded MiB in
 * bench.ts (directory store, 8 MiB parts). In-process requests use the Web body.
 */
export function requestBody(request: Request, env: unknown): ByteSource {
  const incoming = nodeIncoming(env)
  if (incoming && !incoming.readableDidRead) return incoming
  return request.body ? webStreamChunks(request.body) : emptyBody()
}

/** A Web stream as the object store reads bodies; cancels the stream when the reader stops early. */
export async function* webStreamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  let done = false
  try {
    for (;;) {
      const next = await reader.read()
      if (next.done) {
        done = true
        return
      }
      yield next.value
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}

export async function* emptyBody(): AsyncGenerator<Uint8Array> {}

/**
 * Reads and discards what is left of a body the answer did not need (an error before or instead of
 * the upload), so the client finishes sending and then reads the answer, instead of seeing the
 * connection cut mid-upload. Gives up after `limit` bytes; failures (client gone) are ignored.
 */
export async function discardBody(request: Request, env: unknown, limit: number): Promise<void> {
  const incoming = nodeIncoming(env) as (NodeIncoming & { readableEnded?: boolean }) | undefined
  let source: ByteSource | undefined
  if (incoming) {
    if (!incoming.readableEnded) source = incoming
  } else if (request.body && !request.bodyUsed) {
    source = webStreamChunks(request.body)
  }
  if (!source) return
  let seen = 0
  try {
    for await (const chunk of source) {
      seen += chunk.byteLength
      if (seen > limit) return
    }
  } catch {
    // The client hung up: nothing left to discard.
  }
}

/** Reads a small body (a CompleteMultipartUpload document) whole, refusing more than `limit` bytes. */
export async function readSmallBody(body: ByteSource, limit: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
