import type { SimulatorControl } from '../control/control.ts'
import type { SimulatorFetch } from '../http/fetch-handler.ts'
import { SimError } from '../http/sim-error.ts'
import { createSimulatorApp, type SimulatorOptions } from './app.ts'
import { callerCredentials, type SimulatorCredentials } from './caller.ts'
import { assertSupportedNode } from './runtime.ts'
import type { SimulatorUrls } from './start.ts'

/** `createInProcessSimulator`'s options: `createSimulatorApp`'s, and the domain of its origins. */
export interface InProcessOptions extends SimulatorOptions {
  /**
   * The domain its origins are under: `https://api.<domain>` (base), `https://open.<domain>`,
   * `https://app.<domain>` and `https://oss.<domain>` (the object storage, whose virtual-hosted
   * `https://<bucket>.oss.<domain>` is answered too). Default `service-sim.test`: `.test` is
   * reserved, so a request that escapes the routing reaches no real host.
   */
  domain?: string
}

/**
 * The simulator inside the test process, on origins of its own and no port: route the SDK's
 * requests to it with `@service-sdk/simulator/msw` (Node) or `@service-sdk/simulator/playwright`
 * (a browser), or hand `fetch` to a client's `fetch` option.
 */
export interface InProcessSimulator {
  urls: SimulatorUrls
  credentials: SimulatorCredentials
  control: SimulatorControl
  /** Its domain (`service-sim.test` by default). */
  domain: string
  /** Whether `url` is on one of its origins (https only, no port). */
  handles(url: string | URL): boolean
  /**
   * The answer to `request`, or `undefined` when its URL is on none of its origins (for request
   * routers). A connection reset (fault `reset`) rejects with the `TypeError` fetch gives for one.
   */
  answer(request: Request): Promise<Response> | undefined
  /**
   * A `fetch` for its origins, for a client's `fetch` option. A URL on any other origin rejects
   * with a `SimError` (`not_found`) naming it: nothing reaches the network.
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>
  /** Stop background work (webhook deliveries in flight or waiting for a retry). */
  close(): void
}

/** The domain of the in-process simulator's origins unless `domain` says another. */
export const DEFAULT_DOMAIN = 'service-sim.test'

const DOMAIN =
  /^(?=.{1,200}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/

/** The simulator in process: fixed https origins under `domain`, no port opened. */
export function createInProcessSimulator(options: InProcessOptions = {}): InProcessSimulator {
  assertSupportedNode()
  const { domain = DEFAULT_DOMAIN, ...appOptions } = options
  if (typeof domain !== 'string' || !DOMAIN.test(domain))
    throw new SimError(
      'bad_request',
      `domain: a lowercase host name with at least two labels, such as ${DEFAULT_DOMAIN}`,
    )
  const app = createSimulatorApp(appOptions)
  const urls: SimulatorUrls = {
    base: `https://api.${domain}`,
    open: `https://open.${domain}`,
    app: `https://app.${domain}`,
    oss: `https://oss.${domain}`,
  }
  // sts-tmp hands out a bare host, as the live service does (served over https).
  app.setOssEndpoint(`oss.${domain}`)
  app.setPublicOrigin(urls.base)
  let credentials: SimulatorCredentials
  try {
    credentials = callerCredentials(app.control)
  } catch (error) {
    app.close()
    throw error
  }
  const handlerOf = routing(domain, app.fetch, app.ossFetch)
  const answer = (request: Request) => handlerOf(request.url)?.(request)
  return {
    urls,
    credentials,
    control: app.control,
    domain,
    handles: (url) => handlerOf(url) !== undefined,
    answer,
    async fetch(input, init) {
      const request = new Request(input, init)
      const answered = answer(request)
      if (!answered)
        throw new SimError(
          'not_found',
          `${new URL(request.url).origin} is not an origin of the in-process simulator (https://{api,open,app,oss}.${domain})`,
        )
      return answered
    },
    close: () => app.close(),
  }
}

/** Which handler answers a URL: the service's three hosts, the storage's and its buckets'. */
function routing(
  domain: string,
  service: SimulatorFetch,
  storage: SimulatorFetch,
): (url: string | URL) => SimulatorFetch | undefined {
  const hosts = new Map<string, SimulatorFetch>([
    [`api.${domain}`, service],
    [`open.${domain}`, service],
    [`app.${domain}`, service],
    [`oss.${domain}`, storage],
  ])
  const bucketHost = `.oss.${domain}`
  return (url) => {
    const parsed = typeof url === 'string' ? URL.parse(url) : url
    if (parsed?.protocol !== 'https:' || parsed.port !== '') return undefined
    const host = parsed.hostname
    const handler = hosts.get(host)
    if (handler) return handler
    const bucket = host.endsWith(bucketHost) ? host.slice(0, -bucketHost.length) : ''
    return /^[a-z0-9][a-z0-9-]*$/.test(bucket) ? storage : undefined
  }
}
