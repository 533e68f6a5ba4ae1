/** Node's request objects, when served by @hono/node-server: used to reset connections. */
export interface NodeBindings {
  incoming?: { socket?: { destroy(): void } }
}

/** A fetch handler of the simulator: the service's or the object storage's origin. */
export type SimulatorFetch = (request: Request, env?: NodeBindings) => Promise<Response>
