import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { pattern, startTestDemo } from './helpers.ts'
import { readSse } from './sse.ts'

const APP_DIR = resolve(import.meta.dirname, '..')

describe('graceful shutdown', () => {
  test('stop() refuses new uploads, waits for the one in flight, then closes', async () => {
    const demo = await startTestDemo()
    let stopped = false
    try {
      // A body the test releases itself: the upload is in flight until then, however slow the machine.
      let feed!: ReadableStreamDefaultController<Uint8Array>
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          feed = controller
        },
      })
      const bytes = pattern(200 * 1024)
      feed.enqueue(bytes.slice(0, 1000))
      const events = readSse(await demo.app.request('/api/stream?client=client-shutdown'))
      const pending = demo.app.request('/api/uploads?name=late.bin&orgId=1', {
        method: 'POST',
        headers: { 'x-upload-id': 'up-shutdown-1', 'x-demo-client': 'client-shutdown' },
        body,
        duplex: 'half',
      } as RequestInit)
      await events.until((m) => m.event === 'upload')
      await events.close()

      const stopping = demo.stop().then(() => {
        stopped = true
      })
      const ready = await demo.app.request('/readyz')
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({ ready: false, checks: { server: 'stopping' } })
      const refused = await demo.app.request('/api/uploads?name=new.bin&orgId=1', {
        method: 'POST',
        headers: { 'x-upload-id': 'up-shutdown-2', 'x-demo-client': 'client-shutdown' },
        body: pattern(10),
      })
      expect(refused.status).toBe(503)
      expect(stopped).toBe(false)

      feed.enqueue(bytes.slice(1000))
      feed.close()
      const response = await pending
      expect(response.status).toBe(201)
      await stopping
      expect(stopped).toBe(true)
    } finally {
      if (!stopped) await demo.stop()
    }
  })
})

describe('the `demo` command (src/main.ts)', () => {
  const children: ChildProcessWithoutNullStreams[] = []
  const dirs: string[] = []
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  /** Run main.ts with exactly this environment (plus PATH), collecting its output. */
  function run(env: Record<string, string>) {
    // Sources through the export condition, as vitest runs them: this tests main.ts, not the builds.
    const child = spawn(process.execPath, ['--conditions=@service-sdk/source', 'src/main.ts'], {
      cwd: APP_DIR,
      env: { PATH: process.env.PATH ?? '', ...env },
    })
    children.push(child)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text
    })
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
    })
    const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    return {
      child,
      exit,
      output: () => ({ stdout, stderr }),
      async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
        for (;;) {
          const match = stdout.match(pattern)
          if (match) return match
          if (child.exitCode !== null) throw new Error(`exited early:\n${stdout}\n${stderr}`)
          await Promise.race([new Promise((r) => child.stdout.once('data', r)), exit])
        }
      },
    }
  }

  test('partial configuration: exits 1 naming each missing variable', async () => {
    const demo = run({ SERVICE_BASE_URL: 'https://service.example.com' })
    expect(await demo.exit).toBe(1)
    const { stderr } = demo.output()
    for (const name of [
      'SERVICE_OPEN_URL',
      'SERVICE_APP_URL',
      'SERVICE_TEAM_API_KEY',
      'SERVICE_OPEN_TOKEN',
      'DEMO_PUBLIC_URL',
    ]) {
      expect(stderr).toContain(`${name}: is missing`)
    }
  })

  test('no configuration: the simulator; one URL printed; Ctrl-C stops it cleanly', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-main-'))
    dirs.push(dataDir)
    const demo = run({ PORT: '0', DEMO_DATA_DIR: dataDir })
    const [, url] = await demo.waitFor(/➜ {2}(http:\/\/localhost:\d+)/)
    // One URL: the page's (the webhook URL, with its token, is on the page's overview).
    expect(demo.output().stdout.match(/https?:\/\/\S+/g)).toEqual([url])
    await expect.poll(async () => (await fetch(`${url}/readyz`)).status).toBe(200)
    const page = await fetch(url!)
    expect(page.headers.get('content-type')).toContain('text/html')

    demo.child.kill('SIGINT')
    expect(await demo.exit).toBe(0)
    expect(demo.output().stdout).toContain('stopped.')
    await expect(fetch(`${url}/healthz`)).rejects.toThrow()
  })

  test('SIGINT while it starts: it stops cleanly once started, and never announces the page', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-main-'))
    dirs.push(dataDir)
    const demo = run({ PORT: '0', DEMO_DATA_DIR: dataDir })
    await demo.waitFor(/starting on the built-in simulator/)
    demo.child.kill('SIGINT')
    expect(await demo.exit).toBe(0)
    expect(demo.output().stdout).toContain('stopped.')
    expect(demo.output().stdout).not.toContain('➜')
  })
})

describe('`pnpm demo` stopped through its process group, without a terminal', () => {
  const ROOT = resolve(APP_DIR, '..', '..')
  const sessions: number[] = []
  const dirs: string[] = []
  /** Every process still alive in the session `pnpm demo` leads (pnpm, its scripts' groups, turbo, node). */
  const alive = (session: number): string[] => {
    try {
      return execFileSync('ps', ['-o', 'pid=,args=', '-s', String(session)], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.trim() !== '')
    } catch {
      return [] // ps exits 1 when nothing matches
    }
  }
  afterAll(() => {
    for (const session of sessions) {
      for (const line of alive(session)) {
        try {
          process.kill(Number.parseInt(line, 10), 'SIGKILL')
        } catch {}
      }
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  /** `pnpm demo` as a supervisor or a test runner starts it: detached (its own session and group), no TTY. */
  function pnpmDemo() {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-group-'))
    dirs.push(dataDir)
    const child = spawn('pnpm', ['demo'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DEMO_DATA_DIR: dataDir },
    })
    sessions.push(child.pid!)
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text
    })
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      output += text
    })
    const exit = new Promise<void>((done) => child.on('exit', () => done()))
    return { pid: child.pid!, exit, output: () => output }
  }

  /**
   * Resolves once `pnpm demo` has exited; fails after `ms` with what it printed and the processes
   * of its session still alive, so a stop that hangs says where instead of timing the test out.
   */
  async function exited(demo: ReturnType<typeof pnpmDemo>, ms = 60_000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<'late'>((done) => {
      timer = setTimeout(() => done('late'), ms)
    })
    const outcome = await Promise.race([demo.exit, late])
    clearTimeout(timer)
    if (outcome === 'late')
      expect.fail(
        `pnpm demo did not exit within ${ms} ms of the signal.\nAlive in its session:\n${alive(demo.pid).join('\n')}\nIt printed:\n${demo.output()}`,
      )
  }

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s once it runs: every process exits and the port closes',
    async (signal) => {
      const demo = pnpmDemo()
      await expect.poll(() => demo.output(), { timeout: 120_000, interval: 200 }).toMatch(/➜ {2}http:\/\/\S+/)
      const url = demo.output().match(/➜ {2}(http:\/\/\S+)/)![1]!
      await expect.poll(async () => (await fetch(`${url}/readyz`)).status, { timeout: 30_000 }).toBe(200)

      // Quiet: no line of the build (turbo's or the tools'), and one URL, the page's.
      expect(demo.output()).not.toMatch(/:build: |Tasks: |tsdown|vite v/)
      expect(demo.output().match(/https?:\/\/\S+/g)).toEqual([url])
      expect(demo.output().split('\n').length).toBeLessThan(15)

      process.kill(-demo.pid, signal)
      await exited(demo)
      await expect.poll(() => alive(demo.pid), { timeout: 30_000, interval: 200 }).toEqual([])
      expect(demo.output()).toContain('stopped.')
      await expect(fetch(`${url}/healthz`)).rejects.toThrow()
    },
    // `pnpm demo` runs turbo's build first: seconds when cached, longer on a busy machine.
    240_000,
  )

  test('SIGINT while it builds: the server never starts and every process exits', async () => {
    const demo = pnpmDemo()
    // The build step is under way (its one line; turbo's own output is kept back unless it fails).
    await expect.poll(() => demo.output(), { timeout: 60_000, interval: 10 }).toMatch(/building the packages/)

    process.kill(-demo.pid, 'SIGINT')
    await exited(demo)
    await expect.poll(() => alive(demo.pid), { timeout: 30_000, interval: 200 }).toEqual([])
    // The page was never announced (a signal that lands while main.ts starts stops it once started).
    expect(demo.output()).not.toContain('➜')
  }, 180_000)
})
