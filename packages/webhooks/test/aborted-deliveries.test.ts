// A sender that gives up mid-body (a timeout, a crash, a cut) is routine: every adapter, in a real
// framework in a process of its own, handles it quietly (one debug line, nothing on stderr) and
// goes on serving.
import { type ChildProcess, spawn } from 'node:child_process'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { generateWebhookToken } from '../src/intake/token.ts'
import * as S from './samples.ts'

const FRAMEWORKS = ['node', 'hono', 'next', 'express', 'express4', 'koa', 'koa2', 'fastify']
const token = generateWebhookToken()
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

async function startServer(framework: string) {
  const fixture = join(import.meta.dirname, 'fixtures', 'adapter-server.ts')
  // Not NODE_ENV=test (vitest's): Express prints errors to stderr only outside it.
  const { NODE_ENV: _, ...env } = process.env
  const child = spawn(process.execPath, ['--conditions=@service-sdk/source', fixture, framework, token], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const found = /listening (\d+)/.exec(stdout)?.[1]
      if (found) resolve(Number(found))
    })
    child.once('exit', (code) => reject(new Error(`${framework} exited early (${code}): ${stderr}`)))
  })
  return {
    port,
    output: () => ({ stdout, stderr }),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Sends the headers and part of a declared body, then closes the connection. */
function abortMidBody(port: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /webhooks/${token} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"eventId":"evt_cut","payload":"`,
      )
      setTimeout(() => socket.destroy(), 50)
    })
    socket.on('close', () => resolve())
    socket.on('error', () => {})
  })
}

describe.each(FRAMEWORKS)('%s in its own process', (framework) => {
  it('handles a delivery the sender aborts mid-body quietly: a debug line, nothing on stderr, and serves on', async () => {
    const server = await startServer(framework)
    for (let i = 0; i < 3; i++) await abortMidBody(server.port)
    await expect
      .poll(() => server.output().stdout, { timeout: 5_000 })
      .toMatch(/log: debug .*request_aborted/)
    const ok = await fetch(`http://127.0.0.1:${server.port}/webhooks/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: S.addedToFolder,
    })
    expect(ok.status).toBe(200)
    await server.stop()
    expect(server.output().stderr).toBe('')
  })
})
