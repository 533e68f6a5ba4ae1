import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { simulatorEnv, startSimulator } from '@service-sdk/simulator'
import { installNodes, OLDEST_NODE } from '@service-sdk/testkit'
import { generateWebhookToken } from '@service-sdk/webhooks'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { packAll } from '../consumer/pack.ts'
import type { Snippet } from './extract.ts'
import { FIXTURES, fileOf, nameOf, nodeArgs, readmes, root, snippets } from './readmes.ts'

// The READMEs' code as a user runs it, as the root README says: in a fresh `npm init -y` project
// (whose `type` is commonjs) with the packed packages installed by npm, each block saved as its
// README says (`js` as .mjs, run with `node`; `ts` as .mts, run with
// `node --experimental-strip-types`), on the oldest supported Node (22.13) and on Node 24, against
// a fresh simulator whose variables are those `service-sdk sim --env` prints. The quick starts
// run with nothing else around them: no fixture files, the shell block of the webhooks README as
// written.

const exec = promisify(execFile)
const RUN_TIMEOUT_MS = 60_000
const work = mkdtempSync(join(tmpdir(), 'service-sdk-snippets-'))
const project = join(work, 'project')
const blocks = join(project, 'readme-blocks')
let nodes = { oldest: '' }

/**
 * Each README's `## Quick start`: how it runs. The CLI's is a shell script, run as written by
 * internal/consumer/cli.test.ts.
 */
const QUICK_STARTS: Record<string, 'runs' | 'receives' | 'browser' | 'shell'> = {
  'packages/cli/README.md': 'shell',
  'packages/open/README.md': 'runs',
  'packages/team/README.md': 'runs',
  'packages/webhooks/README.md': 'receives',
  'packages/react/README.md': 'browser',
  'packages/selector/README.md': 'browser',
}

function npm(args: string[], cwd: string): string {
  try {
    return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
    })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`npm ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`)
  }
}

beforeAll(() => {
  const packed = packAll(join(work, 'packs'))
  mkdirSync(project)
  npm(['init', '-y'], project)
  npm(['install', ...packed.map((p) => p.tarball)], project)
  // The optional peers the READMEs tell their readers to add for these blocks (`/msw`, `/otel`).
  npm(['install', '--save-dev', 'msw@^3.0.5', '@opentelemetry/api@^1.9.0'], project)
  mkdirSync(blocks)
  for (const s of snippets) writeFileSync(join(blocks, fileOf(s)), s.code)
  nodes = installNodes(join(work, 'runtimes'), { oldest: OLDEST_NODE })
}, 300_000)

const children = new Set<ChildProcess>()
afterAll(() => {
  // A failed test may leave a shell's simulator or receiver running: stop its process group.
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, 'SIGKILL')
  if (!process.env.KEEP_SNIPPETS) rmSync(work, { recursive: true, force: true })
})

test('the project is what `npm init -y` makes: CommonJS, the packages from their tarballs', () => {
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
  expect(manifest.type ?? 'commonjs').toBe('commonjs')
  expect(Object.keys(manifest.dependencies)).toEqual(
    expect.arrayContaining(['@service-sdk/open', '@service-sdk/cli']),
  )
})

const RUNTIMES = [
  [`Node ${OLDEST_NODE}`, () => nodes.oldest],
  ['Node 24', () => process.execPath],
] as const

/** Runs one block's file with `node` in a fresh directory, the simulator's variables set. */
async function runBlock(node: string, snippet: Snippet, fixtures: boolean) {
  const sim = await startSimulator()
  const cwd = mkdtempSync(join(work, 'run-'))
  try {
    if (fixtures)
      for (const fixture of FIXTURES) {
        mkdirSync(join(cwd, fixture, '..'), { recursive: true })
        writeFileSync(join(cwd, fixture), `the bytes of ${fixture}\n`)
      }
    // The variables `service-sdk sim --env` prints: the simulator's, and a webhook token.
    const token = generateWebhookToken()
    const env = { PATH: process.env.PATH, ...simulatorEnv(sim), SERVICE_WEBHOOK_TOKEN: token }
    return await exec(node, nodeArgs(snippet, join(blocks, fileOf(snippet))), {
      cwd,
      env,
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    }).then(
      ({ stdout }) => ({ code: 0 as number | string | undefined, output: stdout }),
      (error: { code?: number; killed?: boolean; stdout?: string; stderr?: string }) => ({
        code: error.killed ? `killed after ${RUN_TIMEOUT_MS} ms` : error.code,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    )
  } finally {
    await sim.stop()
    rmSync(cwd, { recursive: true, force: true })
  }
}

describe.each(RUNTIMES)('every runnable block, in the fresh project, on %s', (_, node) => {
  test.each(snippets.filter((s) => !s.typecheckOnly).map((s) => [nameOf(s), s] as const))(
    '%s runs against the simulator',
    async (_name, snippet) => {
      const run = await runBlock(node(), snippet, true)
      expect(run.code, run.output).toBe(0)
    },
  )
})

/** The first checked block under a README's `## Quick start`. */
function quickStart(readme: string): Snippet {
  const text = readFileSync(join(root, readme), 'utf8')
  const start = text.split('\n').indexOf('## Quick start')
  const block = snippets.find((s) => s.readme === readme && s.line > start)
  if (start < 0 || !block) throw new Error(`${readme} has no quick start`)
  return block
}

describe('the quick starts', () => {
  test('every README with a quick start is listed here with how it runs; those for Node are plain JavaScript', () => {
    const withQuickStart = readmes.filter((r) =>
      readFileSync(join(root, r), 'utf8').includes('\n## Quick start\n'),
    )
    expect(withQuickStart.sort()).toEqual(Object.keys(QUICK_STARTS).sort())
    for (const [readme, how] of Object.entries(QUICK_STARTS)) {
      if (how === 'shell') continue
      const block = quickStart(readme)
      if (how === 'browser') expect(block.typecheckOnly, readme).toBe('browser')
      else expect(block.lang, readme).toBe('js')
    }
  })

  describe.each(RUNTIMES)('on %s', (_, node) => {
    test.each(Object.keys(QUICK_STARTS).filter((r) => QUICK_STARTS[r] === 'runs'))(
      '%s: `node quickstart.mjs` runs as written, with nothing but the simulator variables',
      async (readme) => {
        const run = await runBlock(node(), quickStart(readme), false)
        expect(run.code, run.output).toBe(0)
        // Each prints what it got: the open one an asset's URL, the team one the iframe's sandbox.
        expect(run.output).toMatch(/https?:\/\/|allow-scripts/)
      },
    )

    test('packages/webhooks/README.md: the receiver, its URL subscribed and an event, as the shell block says', async () => {
      const readme = readFileSync(join(root, 'packages/webhooks/README.md'), 'utf8')
      const after = readme.slice(readme.indexOf('## Quick start'))
      const script = /```sh\n([\s\S]*?)```/.exec(after)?.[1]
      expect(script).toBeDefined()
      writeFileSync(join(project, 'quickstart.mjs'), quickStart('packages/webhooks/README.md').code)
      const port = await freePort()
      const shell = spawn(
        'bash',
        [
          '-e',
          '-c',
          (script as string)
            // Free ports: the machine may run another simulator or service on 4010, 4011 or 3000.
            .replace('sim --env', 'sim --port 0 --oss-port 0 --env')
            .replace('127.0.0.1:3000', `127.0.0.1:${port}`),
        ],
        {
          cwd: project,
          detached: true,
          env: {
            ...Object.fromEntries(
              Object.entries(process.env).filter(([k]) => !/^(SERVICE_|XDG_|npm_)/.test(k)),
            ),
            PATH: `${dirname(node())}:${process.env.PATH}`,
            HOME: mkdtempSync(join(work, 'home-')),
            PORT: String(port),
            NO_COLOR: '1',
          },
        },
      )
      children.add(shell)
      let output = ''
      shell.stdout.on('data', (c) => (output += c))
      shell.stderr.on('data', (c) => (output += c))
      const code = await new Promise((resolve) => shell.once('close', resolve))
      for (const file of [
        'quickstart.mjs',
        '.sim.env',
        'webhooks.sqlite',
        'webhooks.sqlite-wal',
        'webhooks.sqlite-shm',
      ])
        rmSync(join(project, file), { force: true })
      expect(code, output).toBe(0)
      expect(output).toContain(`receiving on port ${port}`)
      expect(output).toMatch(/archive \[ '\d{19}' \] \d{13}/)
    }, 60_000)
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}
