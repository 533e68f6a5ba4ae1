import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FOLDERS } from '@service-sdk/simulator'
import { useSimulator } from '@service-sdk/simulator/vitest'
import { afterAll, describe, expect, it } from 'vitest'
import { finished, freshHome, lineMatching, type Run, run, start } from './cli.ts'

// The README promises that the command never prints a webhook token: the last segment of a
// receiver's URL, which lets anyone who has it post events. Every command that handles one runs
// here, as tables and as JSON, on success and on refusal; each output is scanned for it.

const sim = useSimulator()
const home = freshHome()
afterAll(() => home.remove())
const token = randomBytes(32).toString('base64url')
const url = `http://127.0.0.1:3000/webhooks/${token}`
const outputs: Array<[string, Run]> = []
const service = async (...args: string[]) => {
  const result = await run(args, { ...home.env, ...sim.env, SERVICE_WEBHOOK_TOKEN: token })
  outputs.push([args.join(' '), result])
  return result
}

describe('no webhook token in any output', () => {
  it('subscribe and unsubscribe, folders and events, as text and JSON: the URL is shown with <token>', async () => {
    for (const json of [[], ['--json']]) {
      for (const operation of ['subscribe', 'unsubscribe']) {
        const folders = await service(operation, 'folders', FOLDERS.acme.campaigns, '--url', url, ...json)
        expect(folders.code).toBe(0)
        const events = await service(operation, 'events', 'MATERIAL_DELETED', '--url', url, ...json)
        expect(events.code).toBe(0)
      }
    }
    const shown = JSON.parse(outputs.at(-1)?.[1].stdout ?? '') as { callbackUrl: string }
    expect(shown.callbackUrl).toBe('http://127.0.0.1:3000/webhooks/<token>')
    // Refusals: an unknown event type, a URL the client refuses (the token in its query).
    expect((await service('subscribe', 'events', 'NOT_AN_EVENT', '--url', url, '--json')).code).toBe(2)
    expect((await service('subscribe', 'events', 'MATERIAL_DELETED', '--url', `ftp://x/${token}`)).code).toBe(
      2,
    )
    expect(
      (await service('subscribe', 'folders', FOLDERS.acme.campaigns, '--url', `not a url ${token}`)).code,
    ).toBe(2)
  })

  it.each([[[]], [['--json']]])(
    'listen %j, forwarding to an app whose URL holds its token: the tokens are only in their files',
    async (json) => {
      // The app's receiver, which is not running: each forward fails and is reported.
      const closed = createServer()
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
      const port = (closed.address() as AddressInfo).port
      await new Promise((resolve) => closed.close(resolve))
      const app = `http://127.0.0.1:${port}/api/webhooks/${token}`
      const listener = start(
        [
          'listen',
          '--port',
          '0',
          '--events',
          'MATERIAL_DELETED',
          '--forward-to',
          app,
          '--max-attempts',
          '1',
          ...json,
        ],
        { ...home.env, ...sim.env },
      )
      const done = finished(listener)
      const said = (text: string) =>
        new Promise<void>((resolve) =>
          listener.stderr?.on('data', (chunk: Buffer) => chunk.toString().includes(text) && resolve()),
        )
      const gaveUp = said('gave up')
      if (json.length) await lineMatching(listener, (line) => line.includes('"ready"'))
      else await said('Ready.')
      expect((await service('trigger', 'MATERIAL_DELETED')).code).toBe(0)
      await gaveUp
      const listening = sim.control.snapshot().eventSubscriptions[0]?.callbackUrl ?? ''
      const own = readFileSync(`${home.env.XDG_STATE_HOME}/service-sdk/listen-token`, 'utf8').trim()
      expect(listening.endsWith(`/webhooks/${own}`)).toBe(true)
      listener.kill('SIGINT')
      const result = await done
      expect([result.code, result.signal]).toEqual([0, null])
      expect(result.stdout + result.stderr).not.toContain(own)
      expect(result.stdout + result.stderr).toContain(`http://127.0.0.1:${port}/api/webhooks/<token>`)
      outputs.push([`listen ${json}`, result])
    },
  )

  it('config, as text and JSON', async () => {
    expect((await service('config')).code).toBe(0)
    expect((await service('config', '--json')).code).toBe(0)
  })

  it('sim --env: the token goes only to stdout, only as export lines; nothing on stderr', async () => {
    const simulator = start(['sim', '--port', '0', '--oss-port', '0', '--env'], home.env)
    const done = finished(simulator)
    const exported = await lineMatching(simulator, (line) => line.startsWith('export WEBHOOK_TOKEN='))
    simulator.kill('SIGINT')
    const result = await done
    expect(result.code).toBe(0)
    const simToken = exported.slice('export WEBHOOK_TOKEN='.length)
    for (const line of result.stdout.trim().split('\n')) expect(line).toMatch(/^(export [A-Z_]+=\S+|# .*)$/)
    expect(result.stdout).toContain(`export SERVICE_WEBHOOK_TOKEN=${simToken}\n`)
    expect(result.stderr).not.toContain(simToken)
    expect(result.stderr).toMatch(/WEBHOOK_TOKEN is deprecated/)
  })

  it('the token given on the command line appears in no output of any of them', () => {
    expect(outputs.length).toBeGreaterThanOrEqual(14)
    for (const [command, output] of outputs)
      expect([command, output.stdout + output.stderr]).toEqual([command, expect.not.stringContaining(token)])
  })
})
