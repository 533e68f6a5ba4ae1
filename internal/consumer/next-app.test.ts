import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packAll } from './pack.ts'

// An integrator's Next.js app with @service-sdk/webhooks from its packed tarball: no workspace
// links, no .ts sources, no `pg` installed. `next build` (Turbopack) must work with the package
// bundled into the server code (Next's default) and with it in serverExternalPackages; each built
// app then stores a delivery through the SQLite store's worker thread. (The repository's own
// example, examples/nextjs, sees the package as a workspace link, which Next always bundles.)

const here = import.meta.dirname
const work = mkdtempSync(join(tmpdir(), 'service-sdk-next-app-'))
const app = join(work, 'app')
const next = join(app, 'node_modules', 'next', 'dist', 'bin', 'next')
const exec = promisify(execFile)
const WEBHOOK_TOKEN = 'whk_0123456789abcdef0123456789abcdef'

beforeAll(() => {
  const packed = packAll(join(work, 'packs'), ['@service-sdk/core', '@service-sdk/webhooks'])
  cpSync(join(here, 'next-app'), app, { recursive: true })
  // The versions the repository's example runs.
  const example = JSON.parse(readFileSync(join(here, '../../examples/nextjs/package.json'), 'utf8'))
  const { next: nextVersion, react, 'react-dom': reactDom } = example.dependencies
  const manifest = {
    name: 'next-app',
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`])),
      next: nextVersion,
      react,
      'react-dom': reactDom,
    },
  }
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, stdio: 'pipe' })
}, 300_000)

afterAll(() => {
  if (!process.env.KEEP_CONSUMER) rmSync(work, { recursive: true, force: true })
})

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

/** `next build`, at a lower CPU priority; a failure carries Next's output. */
async function build(): Promise<void> {
  rmSync(join(app, '.next'), { recursive: true, force: true })
  const command = [process.execPath, next, 'build']
  const [file, ...args] = process.platform === 'win32' ? command : ['nice', '-n', '10', ...command]
  try {
    await exec(file as string, args, { cwd: app, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`next build failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
}

/** `next start` on a free port, once it answers. */
async function start(): Promise<{ origin: string; server: ChildProcess; output: () => string }> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, [next, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    env: { ...process.env, WEBHOOK_TOKEN, NEXT_TELEMETRY_DISABLED: '1' },
  })
  let output = ''
  server.stdout?.on('data', (chunk) => (output += chunk))
  server.stderr?.on('data', (chunk) => (output += chunk))
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const up = await fetch(origin).then(
      () => true,
      () => false,
    )
    if (up) return { origin, server, output: () => output }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  server.kill()
  throw new Error(`next start did not answer within 60 s:\n${output}`)
}

describe('a Next.js app with @service-sdk/webhooks from its tarball', () => {
  test.each([
    ['bundled into the server code (no next.config entry)', {}],
    ['in serverExternalPackages', { serverExternalPackages: ['@service-sdk/webhooks'] }],
  ])(
    'builds and stores a delivery with the package %s',
    async (_how, config) => {
      writeFileSync(join(app, 'next.config.mjs'), `export default ${JSON.stringify(config)}\n`)
      rmSync(join(app, 'webhooks.sqlite'), { force: true })
      await build()
      if ('serverExternalPackages' in config) {
        // Output tracing (what `output: 'standalone'` copies) lists the thread's file.
        const trace = readFileSync(
          join(app, '.next/server/app/api/webhooks/[token]/route.js.nft.json'),
          'utf8',
        )
        expect(JSON.parse(trace).files).toContainEqual(
          expect.stringMatching(/@service-sdk\/webhooks\/dist\/stores\/sqlite-thread\.mjs$/),
        )
      }
      const { origin, server, output } = await start()
      try {
        const deliver = () =>
          fetch(`${origin}/api/webhooks/${WEBHOOK_TOKEN}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              eventId: 'evt-next-app-1',
              eventType: 'MATERIAL_DELETED',
              eventTime: '1753946835010',
              payload: { materialIds: ['1'], deleteAction: 'RECYCLE' },
            }),
          })
        expect(await (await deliver()).json(), output()).toEqual({ received: true })
        expect(await (await deliver()).json(), output()).toEqual({ received: true, duplicate: true })
      } finally {
        server.kill()
      }
    },
    900_000,
  )
})
