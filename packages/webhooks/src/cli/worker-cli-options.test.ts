import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ServiceValidationError } from '@service-sdk/core'
import { rejectionOf } from '@service-sdk/testkit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workerCliOptions } from './worker-cli-options.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'worker-cli-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

async function moduleFile(name: string, text: string): Promise<string> {
  const file = join(dir, name)
  await writeFile(file, text)
  return file
}

async function refusal(args: string[], env: Record<string, string> = {}) {
  const error = await rejectionOf(workerCliOptions(args, env), 'the arguments were accepted')
  expect(ServiceValidationError.isInstance(error)).toBe(true)
  return (error as ServiceValidationError).issues
}

describe('service-webhooks-worker arguments', () => {
  it('refuses a missing handlers module', async () => {
    expect(await refusal([])).toEqual([{ path: '<handlers module>', message: 'missing' }])
  })

  it('refuses an unknown option, saying which', async () => {
    const [issue] = await refusal(['handlers.js', '--nope'])
    expect(issue).toMatchObject({ path: 'options', message: expect.stringContaining('--nope') })
  })

  it('refuses a module that exports no handlers', async () => {
    const file = await moduleFile('none.mjs', 'export const other = 1\n')
    const [issue] = await refusal([file], { DATABASE_URL: 'postgres://localhost/test' })
    expect(issue).toMatchObject({
      path: '<handlers module>',
      message: expect.stringContaining('exports no handlers'),
    })
  })

  it('refuses to run without DATABASE_URL when the module exports no store', async () => {
    const file = await moduleFile('handlers.mjs', "export const handlers = { '*': () => {} }\n")
    const [issue] = await refusal([file])
    expect(issue).toMatchObject({ path: 'DATABASE_URL', message: expect.stringContaining('is not set') })
  })

  it("takes the module's handlers, store and processing options, with --concurrency over them", async () => {
    const file = await moduleFile(
      'complete.mjs',
      "export default { '*': () => {} }\nexport const store = { name: 'the store' }\nexport const processing = { concurrency: 2, leaseMs: 9000 }\n",
    )
    const options = await workerCliOptions([file, '--concurrency', '5'], {})
    expect(options.store).toEqual({ name: 'the store' })
    expect(Object.keys(options.handlers ?? {})).toEqual(['*'])
    expect(options.processing).toEqual({ concurrency: 5, leaseMs: 9000 })
  })
})
