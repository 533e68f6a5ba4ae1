import { afterAll, beforeAll, beforeEach } from 'vitest'
import { type FixtureOptions, type SimulatorFixture, setupSimulator } from './testing/fixture.ts'

export type { FixtureOptions, SimulatorFixture } from './testing/fixture.ts'

/**
 * One simulator per test file, back to its seed before each test:
 *
 *     const sim = useSimulator()
 *     it('lists members', async () => {
 *       const team = createTeamClient({ baseUrl: sim.urls.base, apiKey: sim.credentials.teamApiKey })
 *     })
 */
export function useSimulator(options: FixtureOptions = {}): SimulatorFixture {
  const fixture = setupSimulator(options)
  beforeAll(async () => {
    await fixture.start()
  })
  beforeEach(() => fixture.reset())
  afterAll(() => fixture.stop())
  return fixture
}
