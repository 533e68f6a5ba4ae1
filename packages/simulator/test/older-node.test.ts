import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installNodes, OLDEST_NODE } from '@service-sdk/testkit'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MIN_NODE } from '../src/host/runtime.ts'

// The built simulator under the oldest Node the SDK supports (22.13.0, from the registry's `node`
// package): a request body with 19-digit ids must be read exactly there too; and under Node 20,
// which it refuses in one line.

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const OSS = createRequire(import.meta.url)('ali-oss') as new (
  options: Record<string, unknown>,
) => { put(key: string, body: Buffer): Promise<unknown> }

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the simulator first (pnpm build)`)
const runtimes = mkdtempSync(join(tmpdir(), 'sim-nodes-'))
const nodes = installNodes(runtimes, { oldest: OLDEST_NODE, tooOld: '20' })
const node = { path: nodes.oldest, version: OLDEST_NODE }

let child: ChildProcess
let urls: { base: string }
let credentials: { openToken: { type: string; value: string } }

beforeAll(async () => {
  child = spawn(node.path, [CLI, '--port', '0', '--oss-port', '0', '--json'], { stdio: 'pipe' })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const line = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolve(out.split('\n')[0] as string)
    })
    child.once('exit', (code) => reject(new Error(`service-sim exited (${code}): ${stderr}`)))
  })
  ;({ urls, credentials } = JSON.parse(line))
})

afterAll(() => {
  child?.kill('SIGKILL')
  rmSync(runtimes, { recursive: true, force: true })
})

test('under Node 20 the simulator refuses in one line naming the Node it needs', () => {
  const run = spawnSync(nodes.tooOld, [CLI, '--port', '0'], { encoding: 'utf8' })
  expect(run.status).not.toBe(0)
  expect(run.stderr).toContain(`Node ${MIN_NODE} or later`)
  expect(run.stderr.trim().split('\n').length).toBeLessThanOrEqual(2)
})

describe(`the simulator on Node ${node.version}`, () => {
  test(`it is at least the claimed minimum (${MIN_NODE})`, () => {
    const [major, minor] = node.version.split('.').map(Number) as [number, number]
    const [minMajor, minMinor] = MIN_NODE.split('.').map(Number) as [number, number]
    expect(major > minMajor || (major === minMajor && minor >= minMinor)).toBe(true)
  })

  test('an upload saved into a folder with a 19-digit id succeeds', async () => {
    const auth = `${credentials.openToken.type} ${credentials.openToken.value}`
    const call = async (path: string, body: string) => {
      const response = await fetch(`${urls.base}/open-api/standard/call/service/${path}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body,
      })
      return (await response.json()) as { code: string; message: string; result: Record<string, unknown> }
    }
    const sts = (await call('sts-tmp', '{}')).result as Record<string, string>
    const key = `${sts.dir}on-older-node.txt`
    await new OSS({
      endpoint: sts.endPoint,
      accessKeyId: sts.accessKeyId,
      accessKeySecret: sts.accessKeySecret,
      stsToken: sts.securityToken,
      bucket: sts.bucket,
    }).put(key, Buffer.from('older node'))
    // The personal space's folder of the default seed; its id is beyond 2^53, sent as a JSON integer.
    const body = `{"materials":[{"key":"${key}","folderId":1753946835000000002,"name":"old","extension":"txt","size":10}]}`
    const saved = await call('material-save', body)
    expect(saved).toMatchObject({ code: '0', result: { materials: [{ key, name: 'old' }] } })
  })
})
