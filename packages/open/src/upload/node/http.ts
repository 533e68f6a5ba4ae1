import http from 'node:http'
import https from 'node:https'
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream'
import { NoAnswerError } from '../oss/no-answer.ts'
import type { OssHttp, OssHttpRequest, OssHttpResponse, RequestTarget } from '../oss/types.ts'
import { partNumberOf } from '../platform/platform.ts'
import { type BytesBody, isBytesBody, sendBytes } from './bytes-body.ts'
import {
  type BufferPool,
  createBufferPool,
  type FileRange,
  isFileRange,
  sendFileRange,
} from './file-range.ts'

/**
 * Read sizes of file ranges, and how many bytes of free read buffers a client keeps per size.
 * Parts of large files are read 1 MiB at a time: each read is a hand-off to libuv's thread pool
 * whose fixed cost, not the copy, dominated at 256 KiB (bench/upload/ab-big.ts: 0.83x the
 * uploader's CPU per MiB; 2 MiB measured no better than 1). Small files keep 256 KiB buffers.
 */
const SMALL_READ = 256 * 1024
const LARGE_READ = 1024 * 1024
const KEEP_BUFFER_BYTES = 16 * 1024 * 1024

/**
 * What the uploads of one client share: keep-alive agents (connections are reused across files)
 * and the read buffers of file parts.
 */
export interface NodeAgents {
  http: http.Agent
  https: https.Agent
  buffers: BufferPool
}

export function createAgents(): NodeAgents {
  return {
    http: new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
    buffers: createBufferPool(SMALL_READ, LARGE_READ, KEEP_BUFFER_BYTES),
  }
}

/**
 * The HTTP layer of Node's object requests (`oss/operations.ts`), on node:http, shared by a
 * client's uploads. Each request follows its upload's context (`params.ctx`): `signal` cuts the
 * upload's object-byte requests (and only those), request bodies are counted as they are
 * consumed, and `timeoutMs` is an idle timeout (no byte in either direction for that long), so a
 * large part on a slow link is fine.
 */
export function createNodeHttp(agents: NodeAgents): OssHttp {
  return {
    request: (url, params) =>
      new Promise((resolve, reject) => {
        send(agents, params, { url, started: Date.now(), settled: false, resolve, reject })
      }),
  }
}

/** One request's promise, settled once. */
interface Pending {
  url: string
  started: number
  settled: boolean
  resolve(response: OssHttpResponse): void
  reject(error: unknown): void
}

/** Rejects as "no answer" (see `NoAnswerError`). */
function fail(pending: Pending, error: NoAnswerError): void {
  if (pending.settled) return
  pending.settled = true
  pending.reject(error)
}

const aborted = () => new NoAnswerError('aborted', 'aborted')

function send(agents: NodeAgents, params: OssHttpRequest, pending: Pending): void {
  const options = params.ctx
  const target = params.target ?? targetOf(pending.url)
  const secure = target.protocol === 'https:'
  // Only object bytes (PUT) are cut by an abort: see RequestContext.signal.
  const cut = params.method === 'PUT'
  if (cut && options.signal.aborted) {
    fail(pending, aborted())
    return
  }
  let timedOut = false
  // The URL's parts as options: node:http's own conversion of a URL object (urlToHttpOptions)
  // reads every field of it, a few microseconds per request that small files notice.
  const req = (secure ? https : http).request({
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    path: target.path,
    method: params.method,
    headers: headerList(params.headers, target),
    agent: secure ? agents.https : agents.http,
  })
  if (cut) cutOnAbort(req, options.signal, pending)
  req.setTimeout(options.timeoutMs, () => {
    timedOut = true
    req.destroy()
  })
  req.on('error', (error) => {
    if (timedOut) fail(pending, new NoAnswerError('timeout', `no progress for ${options.timeoutMs} ms`))
    else if (cut && options.signal.aborted) fail(pending, aborted())
    else fail(pending, new NoAnswerError('connection_error', error.message))
  })
  req.on('response', (res) => collect(res, pending))
  writeBody(req, params, target, agents)
}

/**
 * The headers as a flat list, with the Host node:http would add when there is none: given a list,
 * node:http writes it as it is (each name and value still checked) instead of setting each header
 * into an object of its own first (~4% fewer of node:http's instructions per 64 KiB PUT, counted
 * with callgrind).
 */
function headerList(headers: OssHttpRequest['headers'], target: RequestTarget): string[] {
  const list: string[] = []
  let host = false
  for (const name of Object.keys(headers)) {
    list.push(name, String(headers[name]))
    if (name.length === 4 && name.toLowerCase() === 'host') host = true
  }
  if (!host) {
    const name = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname
    list.push('Host', target.port === '' ? name : `${name}:${target.port}`)
  }
  return list
}

/** The parts of a URL the caller passed whole (signed elsewhere: the upload proxy; tests). */
function targetOf(url: string): RequestTarget {
  const parsed = new URL(url)
  const { hostname } = parsed
  return {
    protocol: parsed.protocol,
    hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    port: parsed.port,
    path: parsed.pathname + parsed.search,
    part: partNumberOf(parsed),
  }
}

/**
 * Destroys the request when `signal` aborts, until it settles. A listener of our own rather than
 * http.request's `signal` option: that one ties the signal to the request's stream end with
 * `finished()`, a dozen listeners per request, a measurable share of a small file's CPU.
 */
function cutOnAbort(req: http.ClientRequest, signal: AbortSignal, pending: Pending): void {
  // Removed once the request settles, so without `once` (whose options cost more to read).
  const onAbort = () => req.destroy(aborted())
  signal.addEventListener('abort', onAbort)
  const { resolve, reject } = pending
  pending.resolve = (response) => {
    signal.removeEventListener('abort', onAbort)
    resolve(response)
  }
  pending.reject = (error) => {
    signal.removeEventListener('abort', onAbort)
    reject(error)
  }
}

/** Reads the whole answer (OSS's answers to uploads are small XML documents, or nothing). */
function collect(res: http.IncomingMessage, pending: Pending): void {
  const chunks: Buffer[] = []
  let size = 0
  res.on('data', (chunk: Buffer) => {
    chunks.push(chunk)
    size += chunk.length
  })
  res.on('error', (error) => fail(pending, new NoAnswerError('connection_error', error.message)))
  res.on('aborted', () => fail(pending, new NoAnswerError('connection_error', 'the response was cut short')))
  res.on('end', () => {
    if (pending.settled) return
    pending.settled = true
    pending.resolve({ status: res.statusCode ?? 0, headers: res.headers, data: Buffer.concat(chunks, size) })
  })
}

/** Sends the body and ends the request; only PUT bodies are object bytes (PutObject, UploadPart). */
function writeBody(
  req: http.ClientRequest,
  params: OssHttpRequest,
  target: RequestTarget,
  agents: NodeAgents,
): void {
  const body = params.stream as Readable | FileRange | BytesBody | undefined
  if (body === undefined) {
    req.end(params.content as string | Uint8Array | undefined)
    return
  }
  const { onBodyBytes } = params.ctx
  const part = params.method === 'PUT' ? target.part : undefined
  const count = (n: number) => {
    if (part !== undefined) onBodyBytes(part, n)
  }
  if (isFileRange(body)) {
    sendFileRange(req, body, agents.buffers, count).catch((error: unknown) => req.destroy(error as Error))
    return
  }
  if (isBytesBody(body)) {
    sendBytes(req, body, count)
    return
  }
  const stages: Array<Readable | Transform> = [body]
  if (part !== undefined) stages.push(counter(count))
  pipeline([...stages, req], (error) => {
    if (error) req.destroy(error)
  })
}

function counter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      onBytes(chunk.length)
      done(null, chunk)
    },
  })
}
