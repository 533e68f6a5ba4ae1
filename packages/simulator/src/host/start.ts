import type { ServerOptions } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import type { SimulatorControl } from '../control/control.ts'
import type { SimulatorFetch } from '../http/fetch-handler.ts'
import { OSS_SERVER_OPTIONS } from '../oss/index.ts'
import { createSimulatorApp, type SimulatorOptions } from './app.ts'
import { callerCredentials, type SimulatorCredentials } from './caller.ts'
import { assertSupportedNode } from './runtime.ts'

export interface StartOptions extends SimulatorOptions {
  /** Port of the service (team API, open API, pages). Default 0: any free port. */
  port?: number
  /** Port of the object storage. Default 0: any free port. */
  ossPort?: number
  /** Default 127.0.0.1. */
  host?: string
}

/** Where the simulator answers: the service's three URLs and its object storage. */
export interface SimulatorUrls {
  /** `{base_url}`: team API at /api/team. */
  base: string
  /** `{open_url}`: open API at /open-api and /api/service. */
  open: string
  /** `{app_url}`: the folder selector at /outer/outerChoice. */
  app: string
  /** The object storage endpoint (also handed out by sts-tmp). */
  oss: string
}

export interface RunningSimulator {
  urls: SimulatorUrls
  credentials: SimulatorCredentials
  control: SimulatorControl
  stop(): Promise<void>
}

function listen(
  fetch: SimulatorFetch,
  port: number,
  hostname: string,
  serverOptions: ServerOptions = {},
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname, serverOptions }, () => resolve(server))
    server.once('error', reject)
  })
}

function close(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    if ('closeAllConnections' in server) server.closeAllConnections()
  })
}

/** The simulator on real ports: what the demo, integration tests and `service-sim` use. */
export async function startSimulator(options: StartOptions = {}): Promise<RunningSimulator> {
  assertSupportedNode()
  const host = options.host ?? '127.0.0.1'
  const sim = createSimulatorApp(options)
  const main = await listen(sim.fetch, options.port ?? 0, host)
  const oss = await listen(sim.ossFetch, options.ossPort ?? 0, host, OSS_SERVER_OPTIONS)
  const origin = (server: ServerType) => {
    const { port } = server.address() as AddressInfo
    return { url: `http://${host}:${port}` }
  }
  const base = origin(main).url
  // Real endPoints are bare hosts served over https; the simulator's storage speaks plain http on
  // a port, which a bare `host:port` cannot say (ali-oss would read `127.0.0.1:` as a scheme).
  sim.setOssEndpoint(origin(oss).url)
  sim.setPublicOrigin(base)
  let credentials: SimulatorCredentials
  try {
    credentials = callerCredentials(sim.control)
  } catch (error) {
    sim.close()
    await Promise.all([close(main), close(oss)])
    throw error
  }
  return {
    urls: { base, open: base, app: base, oss: origin(oss).url },
    credentials,
    control: sim.control,
    async stop() {
      sim.close()
      await Promise.all([close(main), close(oss)])
    },
  }
}
