import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { installNodes, OLDEST_NODE } from '@service-sdk/testkit'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packAll } from './pack.ts'

// The command line as a user gets it: its packed tarball and those of its workspace dependencies,
// installed with plain npm into a fresh project, run through node_modules/.bin/service-sdk with a
// fresh HOME, on the oldest Node the SDK supports (@service-sdk/testkit's runtimes.ts) and on the workspace's Node 24; and
// on Node 20, which it refuses in one line.

const CLI = '@service-sdk/cli'
const PACKAGES = [
  CLI,
  '@service-sdk/core',
  '@service-sdk/open',
  '@service-sdk/simulator',
  '@service-sdk/team',
  '@service-sdk/webhooks',
]
const work = mkdtempSync(join(tmpdir(), 'service-sdk-cli-consumer-'))
const project = join(work, 'project')
const bin = join(project, 'node_modules', '.bin', 'service-sdk')
let version = ''
let nodes = { oldest: '', tooOld: '' }

function npm(args: string[], cwd: string): void {
  try {
    execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, stdio: 'pipe' })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer }
    throw new Error(`npm ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
}

beforeAll(() => {
  const packed = packAll(join(work, 'packs'), PACKAGES)
  mkdirSync(project)
  const dependencies = Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`]))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh', private: true, dependencies }))
  npm(['install'], project)
  nodes = installNodes(join(work, 'runtimes'), { oldest: OLDEST_NODE, tooOld: '20' })
  version = JSON.parse(readFileSync(join(project, 'node_modules', CLI, 'package.json'), 'utf8')).version
}, 300_000)

const children = new Set<ChildProcess>()
afterAll(() => {
  // A failed test leaves its simulator or listener running: stop them.
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  if (!process.env.KEEP_CONSUMER) rmSync(work, { recursive: true, force: true })
})

interface Ended {
  code: number | null
  stdout: string
  stderr: string
}

/** `service-sdk` as a shell runs it: the bin's `#!/usr/bin/env node` finds `node` on PATH. */
function start(node: string, args: string[], home: string, extra: Record<string, string> = {}): ChildProcess {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(SERVICE_|XDG_|npm_)/.test(k)),
  )
  const child = spawn(bin, args, {
    cwd: project,
    env: { ...env, PATH: `${dirname(node)}:${process.env.PATH}`, HOME: home, NO_COLOR: '1', ...extra },
  })
  children.add(child)
  return child
}

function ended(child: ChildProcess): Promise<Ended> {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (c) => (stdout += c))
  child.stderr?.on('data', (c) => (stderr += c))
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })))
}

const run = (node: string, args: string[], home: string, extra?: Record<string, string>) =>
  ended(start(node, args, home, extra))

function line(child: ChildProcess, test: (line: string) => boolean): Promise<string> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  return new Promise((resolve, reject) => {
    lines.on('line', (l) => test(l) && resolve(l))
    child.once('close', () => reject(new Error('ended before the line')))
  })
}

describe.each([
  [`the oldest supported Node, ${OLDEST_NODE}`, () => nodes.oldest],
  ['Node 24', () => process.execPath],
])('the packed service-sdk on %s, in a fresh npm project with a fresh HOME', (_, node) => {
  test('--version, --help, sim --env, upload, listen with an event, as the README says', async () => {
    const home = mkdtempSync(join(work, 'home-'))
    expect((await run(node(), ['--version'], home)).stdout).toBe(`${version}\n`)
    const help = await run(node(), ['--help'], home)
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: service-sdk')])

    const sim = start(node(), ['sim', '--port', '0', '--oss-port', '0', '--env'], home)
    const simEnded = ended(sim)
    const env: Record<string, string> = {}
    await line(sim, (l) => {
      const [, name, value] = /^export ([A-Z_]+)=(.*)$/.exec(l) ?? []
      if (name) env[name] = value as string
      return name === 'WEBHOOK_TOKEN'
    })
    expect(env.SERVICE_WEBHOOK_TOKEN).toBeDefined()

    writeFileSync(join(home, 'brochure.txt'), 'the bytes of a brochure\n')
    const upload = await run(
      node(),
      ['upload', join(home, 'brochure.txt'), '--org', '1001', '--json'],
      home,
      env,
    )
    expect([upload.code, upload.stderr]).toEqual([0, expect.any(String)])
    expect(JSON.parse(upload.stdout)).toMatchObject([{ status: 'saved', id: expect.stringMatching(/^\d+$/) }])

    const listen = start(
      node(),
      ['listen', '--port', '0', '--events', 'MATERIAL_DELETED', '--json'],
      home,
      env,
    )
    const listenEnded = ended(listen)
    await line(listen, (l) => l.includes('"ready"'))
    const event = line(listen, (l) => l.includes('"type":"event"'))
    const trigger = await run(node(), ['trigger', 'MATERIAL_DELETED', '--json'], home, env)
    expect(trigger.code).toBe(0)
    expect(JSON.parse(await event)).toMatchObject({ eventType: 'MATERIAL_DELETED' })
    listen.kill('SIGINT')
    const stopped = await listenEnded
    expect(stopped.code).toBe(0)
    // node:sqlite is experimental on Node 22: the command does not pass Node's warning on.
    expect(stopped.stderr).not.toMatch(/Warning/)
    sim.kill('SIGINT')
    expect((await simEnded).code).toBe(0)
  })
})

/** The ```sh block under the CLI README's "## Quick start". */
function quickStart(): string {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'packages', 'cli', 'README.md'), 'utf8')
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Quick start')))?.[1]
  if (!block) throw new Error('no quick start in the CLI README')
  return block
}

describe('the README quick start', () => {
  test('runs as written in the fresh project: spaces, an upload, a triggered event received, all stopped', async () => {
    const script = quickStart()
      // Installed already, from the tarballs.
      .replace('npm init -y > /dev/null && npm install -D @service-sdk/cli\n', '')
      // Free ports: the machine may run another simulator or listener on 4010 or 4242.
      .replace('sim --save-profile', 'sim --port 0 --oss-port 0 --save-profile')
      .replace('listen --events', 'listen --port 0 --events')
    expect(script).not.toMatch(/^npm /m)
    const home = mkdtempSync(join(work, 'home-'))
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(SERVICE_|XDG_|npm_)/.test(k)),
    )
    const shell = spawn('bash', ['-e', '-c', script], {
      cwd: project,
      env: { ...env, PATH: `${dirname(process.execPath)}:${process.env.PATH}`, HOME: home, NO_COLOR: '1' },
    })
    children.add(shell)
    const result = await ended(shell)
    expect([result.code, result.stderr]).toEqual([0, expect.not.stringMatching(/Error/)])
    expect(result.stdout).toMatch(/│ 1001 +│ Acme/)
    expect(result.stdout).toMatch(/hello\.txt.*│ saved/)
    expect(result.stdout).toMatch(/MATERIAL_DELETED assets 19\d{17}/)
    expect(result.stderr).toMatch(/Unsubscribed; stopped\./)
    expect(result.stderr).toMatch(/The simulator is running/)
  }, 60_000)
})

describe('an older Node', () => {
  test('Node 20: one line naming the version needed, and a hint; no stack (exit 3)', async () => {
    const home = mkdtempSync(join(work, 'home-'))
    const node = nodes.tooOld
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(/^v20\./)
    for (const args of [['--version'], ['--help'], ['upload', 'x']]) {
      const result = await run(node, args, home)
      expect(result.code).toBe(3)
      expect(result.stdout).toBe('')
      expect(result.stderr).toMatch(
        /^Error: service-sdk needs Node 22 \(22\.13 or later\) or Node 24 and later; this is Node 20\.\d+\.\d+\.\nHint: [^\n]+\n$/,
      )
    }
  })
})
