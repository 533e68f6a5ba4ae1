import { expect, test } from 'vitest'
import { createTeamClient, ServiceValidationError } from '../src/index.ts'

// `process.env.X` (`string | undefined`) compiles under `exactOptionalPropertyTypes` (this file is
// type-checked with it); an unset one is refused at creation, naming the option.

const env: Record<string, string | undefined> = {}

test('an unset variable: a ServiceValidationError naming baseUrl and apiKey, at creation', () => {
  const create = () => createTeamClient({ baseUrl: env.SERVICE_BASE_URL, apiKey: env.SERVICE_TEAM_API_KEY })
  expect(create).toThrow(ServiceValidationError)
  expect(create).toThrow(
    'baseUrl: is required, and is undefined (an environment variable that is not set?); apiKey: is required, and is undefined',
  )
})
