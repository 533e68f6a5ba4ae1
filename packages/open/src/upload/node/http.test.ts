import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UploadError } from '@service-sdk/core'
import { rejectionOf } from '@service-sdk/testkit'
import { afterEach, describe, expect, test } from 'vitest'
import { sourceError } from '../engine/source-error.ts'
import { failureOf } from '../oss/failure.ts'
import { NoAnswerError } from '../oss/no-answer.ts'
import type { RequestContext } from '../oss/types.ts'
import { bytesBody } from './bytes-body.ts'
import { fileRange } from './file-range.ts'
import { createAgents, createNodeHttp } from './http.ts'

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  server?.close()
  server = undefined
})

/** A server that records each request's method, path and body, then answers (or never does). */
async function listen(host: string, answer = true) {
  const seen: Array<{
    method: string | undefined
    url: string | undefined
    host: string | undefined
    body: string
  }> = []
  server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer)
    } catch {
      return // the client cut the request
    }
    seen.push({
      method: req.method,
      url: req.url,
      host: req.headers.host,
      body: Buffer.concat(chunks).toString(),
    })
    if (answer) res.writeHead(200, { 'x-oss-hash-crc64ecma': '42' }).end()
  })
  server.listen(0, host)
  await once(server, 'listening')
  return { port: (server.address() as AddressInfo).port, seen }
}

const context = (signal = new AbortController().signal, timeoutMs = 5_000): RequestContext => ({
  signal,
  timeoutMs,
  onBodyBytes: () => {},
})

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, 'the request succeeded')

describe('the Node HTTP layer', () => {
  test('sends to the URL it is given, an IPv6 literal too, with path and query', async () => {
    for (const [host, name] of [
      ['127.0.0.1', '127.0.0.1'],
      ['::1', '[::1]'],
    ] as const) {
      const { port, seen } = await listen(host).catch(() => ({ port: 0, seen: [] }))
      if (port === 0) continue // no IPv6 on this machine
      const http = createNodeHttp(createAgents())
      const url = `http://${name}:${port}/dir/a%20b.bin?partNumber=2&uploadId=U`
      const body = bytesBody([new TextEncoder().encode('hello')])
      const response = await http.request(url, {
        method: 'PUT',
        headers: { 'Content-Length': '5' },
        stream: body,
        ctx: context(),
      })
      expect(response.status).toBe(200)
      expect(response.headers['x-oss-hash-crc64ecma']).toBe('42')
      // The Host node:http derives from the URL when the request names none.
      const derived = `${name}:${port}`
      const url2 = '/dir/a%20b.bin?partNumber=2&uploadId=U'
      expect(seen).toEqual([{ method: 'PUT', url: url2, host: derived, body: 'hello' }])
      const named = { host: 'bucket.oss-cn-hangzhou.aliyuncs.com' }
      await http.request(url, { method: 'GET', headers: named, ctx: context() })
      expect(seen[1]).toEqual({ method: 'GET', url: url2, host: named.host, body: '' })
      server?.closeAllConnections()
      server?.close()
    }
  })

  test("a PUT is cut when its upload's signal aborts: the request rejects as aborted", async () => {
    const { port } = await listen('127.0.0.1', false)
    const http = createNodeHttp(createAgents())
    const stop = new AbortController()
    const sent = http.request(`http://127.0.0.1:${port}/k`, {
      method: 'PUT',
      headers: { 'Content-Length': '1' },
      stream: bytesBody([new Uint8Array(1)]),
      ctx: context(stop.signal),
    })
    setTimeout(() => stop.abort(), 50)
    const error = await rejection(sent)
    expect(NoAnswerError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'aborted', status: -1 })
  })

  test('no byte for timeoutMs: a typed timeout, with the status ali-oss reads as one, retried as a timeout', async () => {
    const { port } = await listen('127.0.0.1', false)
    const http = createNodeHttp(createAgents())
    const sent = http.request(`http://127.0.0.1:${port}/k`, {
      method: 'GET',
      headers: {},
      ctx: context(undefined, 50),
    })
    const error = await rejection(sent)
    expect(NoAnswerError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'timeout', status: -2, isRetryable: true })
    expect(failureOf(error, (text) => text)).toMatchObject({ kind: 'retryable', code: 'timeout' })
  })

  test('a refused connection: a typed connection_error, retried as one', async () => {
    const { port } = await listen('127.0.0.1')
    server?.close()
    await once(server as Server, 'close')
    const http = createNodeHttp(createAgents())
    const error = await rejection(
      http.request(`http://127.0.0.1:${port}/k`, { method: 'GET', headers: {}, ctx: context() }),
    )
    expect(NoAnswerError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'connection_error', status: -1 })
    expect(failureOf(error, (text) => text)).toMatchObject({ kind: 'retryable', code: 'connection_error' })
  })

  test("a file part whose file shrank: the source's failure is a typed source_changed, the upload's a source_error", async () => {
    const { port } = await listen('127.0.0.1')
    const dir = await mkdtemp(join(tmpdir(), 'http-test-'))
    try {
      const path = join(dir, 'shrank.bin')
      await writeFile(path, Buffer.alloc(1000, 7))
      const failures: unknown[] = []
      const http = createNodeHttp(createAgents())
      const sent = http.request(`http://127.0.0.1:${port}/k?partNumber=1&uploadId=U`, {
        method: 'PUT',
        headers: { 'Content-Length': '4096' },
        stream: fileRange(path, 0, 4096, (error) => failures.push(error)),
        ctx: context(),
      })
      expect(NoAnswerError.isInstance(await rejection(sent))).toBe(true)
      expect(failures).toHaveLength(1)
      expect(UploadError.isInstance(failures[0])).toBe(true)
      expect(failures[0]).toMatchObject({
        code: 'source_changed',
        message: `${path} ended before byte 4096: it changed during the upload`,
      })
      // What multipart.ts makes of the part's failure: the caller's error.
      expect(sourceError(failures[0], 1)).toMatchObject({
        code: 'source_error',
        partNumber: 1,
        cause: failures[0],
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
