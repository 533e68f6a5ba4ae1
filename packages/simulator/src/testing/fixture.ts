import { simulatorEnv } from '../host/env.ts'
import { type RunningSimulator, type StartOptions, startSimulator } from '../host/start.ts'
import { SimError } from '../http/sim-error.ts'
import type { Seed } from '../model/seed.ts'

export interface FixtureOptions extends StartOptions {
  /** Also set the `SERVICE_*` variables in `process.env` while it runs (restored by `stop()`). Default false. */
  setEnv?: boolean
}

/** One simulator for a test file: start once, reset between tests, stop at the end. */
export interface SimulatorFixture {
  /** Available once `start()` has resolved. */
  readonly urls: RunningSimulator['urls']
  readonly credentials: RunningSimulator['credentials']
  readonly control: RunningSimulator['control']
  /** The `SERVICE_*` variables the README quick starts read, for this simulator. */
  readonly env: Record<string, string>
  /** Start it (again a no-op once started). */
  start(): Promise<RunningSimulator>
  /** Back to the seed (or to `seed`, for this test): see `control.reset`. */
  reset(seed?: Seed): void
  stop(): Promise<void>
}

/** For any test runner: call `start()` before the tests, `reset()` before each, `stop()` after. */
export function setupSimulator(options: FixtureOptions = {}): SimulatorFixture {
  const { setEnv = false, ...start } = options
  let running: Promise<RunningSimulator> | undefined
  let sim: RunningSimulator | undefined
  let saved: Record<string, string | undefined> = {}
  const current = (): RunningSimulator => {
    if (!sim)
      throw new SimError(
        'bad_request',
        'The simulator is not running yet: await fixture.start() first (in a beforeAll)',
      )
    return sim
  }
  return {
    get urls() {
      return current().urls
    },
    get credentials() {
      return current().credentials
    },
    get control() {
      return current().control
    },
    get env() {
      return simulatorEnv(current())
    },
    start() {
      running ??= startSimulator(start).then((started) => {
        sim = started
        if (setEnv) {
          const env = simulatorEnv(started)
          saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]))
          Object.assign(process.env, env)
        }
        return started
      })
      return running
    },
    reset(seed) {
      current().control.reset(seed)
    },
    async stop() {
      const stopping = sim
      sim = undefined
      running = undefined
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
      saved = {}
      await stopping?.stop()
    },
  }
}
