import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseServiceJson } from '@service-sdk/core'
import { assetEventSchema, folderContentCallbackSchema } from '@service-sdk/core/schemas'

/** How the receiver answers one request: an HTTP status, never (hang), or by dropping the connection. */
export type Answer = number | 'hang' | 'reset'

export interface Received {
  path: string
  headers: IncomingMessage['headers']
  /** The raw body: check ids here, before any parser can round them. */
  text: string
  /** The body parsed with every integer digit kept (integers beyond 2^53 become decimal strings). */
  body: Record<string, unknown>
  /** What core's schemas (as an SDK receiver parses) found wrong with the body; empty when valid. */
  schemaIssues: string[]
}

/** A real HTTP receiver on 127.0.0.1 for tests: records every body and answers as scripted. */
export interface TestReceiver {
  /** Base URL; deliveries may go to any path under it. */
  url: string
  received: Received[]
  /** Answer the next requests with these, in order; afterwards 200. */
  script(...answers: Answer[]): void
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>
  close(): Promise<void>
}

/** JSON.parse keeping big integers exact (Node >= 21 hands the reviver each literal's source). */
export function parseExact(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' &&
    !Number.isSafeInteger(value) &&
    context?.source &&
    /^-?\d+$/.test(context.source)
      ? context.source
      : value,
  )
}

/** Check a body the way the SDK reads it: core's lossless parse, then its zod schema. */
export function schemaIssues(text: string): string[] {
  const body = parseServiceJson(text) as { eventType?: unknown }
  const schema = body.eventType === 'FOLDER_CONTENT_UPDATE' ? folderContentCallbackSchema : assetEventSchema
  const result = schema.safeParse(body)
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

export async function startReceiver(): Promise<TestReceiver> {
  const received: Received[] = []
  const answers: Answer[] = []
  const hanging = new Set<ServerResponse>()
  let waiters: Array<{ count: number; resolve: () => void }> = []

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      received.push({
        path: req.url ?? '/',
        headers: req.headers,
        text,
        body: parseExact(text) as Record<string, unknown>,
        schemaIssues: schemaIssues(text),
      })
      const ready = waiters.filter((w) => received.length >= w.count)
      waiters = waiters.filter((w) => received.length < w.count)
      for (const w of ready) w.resolve()
      const answer = answers.shift() ?? 200
      if (answer === 'hang') hanging.add(res)
      else if (answer === 'reset') req.socket.destroy()
      else res.writeHead(answer, { 'content-type': 'text/plain' }).end(String(answer))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (...next) => void answers.push(...next),
    waitFor: (count) =>
      new Promise((resolve) => {
        if (received.length >= count) resolve()
        else waiters.push({ count, resolve })
      }),
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
