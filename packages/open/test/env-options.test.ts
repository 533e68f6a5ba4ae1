import { expect, test } from 'vitest'
import { createOpenClient, ServiceValidationError } from '../src/index.ts'

// What a user passes from the environment (`process.env.X`, `string | undefined`) compiles under
// `exactOptionalPropertyTypes` (this repository's setting; the file is type-checked with it), and a
// variable that is not set is refused when the client is created, naming the option: nothing is sent.

const env: Record<string, string | undefined> = { SERVICE_OPEN_URL: 'http://127.0.0.1:4010' }

test('an unset variable: a ServiceValidationError naming each missing option, at creation', () => {
  let thrown: unknown
  try {
    createOpenClient({
      openUrl: env.SERVICE_OPEN_URL,
      token: { type: env.SERVICE_OPEN_TOKEN_TYPE, value: env.SERVICE_OPEN_TOKEN },
      apiKey: env.SERVICE_API_KEY,
    })
  } catch (error) {
    thrown = error
  }
  expect(ServiceValidationError.isInstance(thrown)).toBe(true)
  expect((thrown as ServiceValidationError).issues).toEqual([
    {
      path: 'token.type',
      message: expect.stringContaining('is undefined (an environment variable that is not set?)'),
    },
    { path: 'token.value', message: expect.stringContaining('is undefined') },
  ])
})

test('every variable set: the client is made; an unset optional apiKey is no key', () => {
  const open = createOpenClient({
    openUrl: env.SERVICE_OPEN_URL,
    token: { type: 'Bearer', value: 'a-token' },
    apiKey: env.SERVICE_API_KEY,
  })
  expect(typeof open.upload).toBe('function')
})
