import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Logger, UploadCredential } from '@service-sdk/core'
import type { RunningSimulator } from '@service-sdk/simulator'
import { createOpenClient, type OpenClientOptions } from '../../src/index.ts'

export const KiB = 1024
export const MiB = 1024 * KiB

/** The real ali-oss, typed for what the tests check on the server (it has no declarations). */
export interface RawOss {
  head(key: string): Promise<{ res: { headers: Record<string, string> } }>
  listParts(key: string, uploadId: string): Promise<{ parts: unknown }>
}
const AliOss = createRequire(import.meta.url)('ali-oss') as new (options: Record<string, unknown>) => RawOss

/** An ali-oss client of the tests' own, to look at the object store as any OSS user would. */
export function rawOss(credential: UploadCredential): RawOss {
  return new AliOss({
    endpoint: credential.endPoint,
    bucket: credential.bucket,
    accessKeyId: credential.accessKeyId,
    accessKeySecret: credential.accessKeySecret,
    stsToken: credential.securityToken,
    refreshSTSTokenInterval: 3_600_000,
  })
}

/** The rejection of `promise` (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Exactly the bytes served at `url`, hashed. */
export async function servedHash(url: string): Promise<string> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url}: ${response.status}`)
  return sha256(new Uint8Array(await response.arrayBuffer()))
}

/** Random bytes with each 64 KiB block numbered, so a misplaced part changes the hash. */
export function testBytes(size: number): Buffer {
  const bytes = randomBytes(size)
  for (let at = 0; at + 4 <= size; at += 64 * KiB) bytes.writeUInt32BE(at / (64 * KiB), at)
  return bytes
}

export interface Workspace {
  dir: string
  file(name: string, bytes: Uint8Array): Promise<string>
  remove(): Promise<void>
}

export async function workspace(): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'open-upload-test-'))
  return {
    dir,
    async file(name, bytes) {
      const path = join(dir, name)
      await writeFile(path, bytes)
      return path
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

export interface Recorded {
  /** Paths of every open-API request, in order. */
  calls: string[]
  /** Request bodies, by path. */
  bodies: Array<{ path: string; body: string }>
  logs: string[]
  count(path: string): number
}

/** An open client on the simulator, recording its API calls and everything it logs. */
export function recordingClient(sim: RunningSimulator, overrides: Partial<OpenClientOptions> = {}) {
  const recorded: Recorded = {
    calls: [],
    bodies: [],
    logs: [],
    count: (path) => recorded.calls.filter((c) => c.endsWith(path)).length,
  }
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    recorded.logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }
  const open = createOpenClient({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    logger,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    fetch: async (input, init) => {
      const request = new Request(input, init)
      const path = new URL(request.url).pathname
      recorded.calls.push(path)
      recorded.bodies.push({ path, body: await request.clone().text() })
      return fetch(request)
    },
    ...overrides,
    uploads: { retry: { initialDelayMs: 1, maxDelayMs: 10 }, ...overrides.uploads },
  })
  return { open, recorded }
}

/**
 * Counts the object-store requests of each operation (a no-op fault that fires on every match),
 * only those for keys containing `path` when given.
 */
export function countOss(sim: RunningSimulator, ops: string[], path?: string) {
  const handles = ops.map(
    (op) =>
      [
        op,
        sim.control.faults.inject({
          match: { target: 'oss', op, ...(path === undefined ? {} : { path }) },
          action: { type: 'latency', ms: 0 },
          times: Infinity,
        }),
      ] as const,
  )
  return () => Object.fromEntries(handles.map(([op, handle]) => [op, handle.hits])) as Record<string, number>
}

/** Resolves when `check` holds (polled on each progress event source: a microtask loop with a short sleep). */
export async function until(check: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
