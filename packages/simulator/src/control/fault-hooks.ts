import { sleep } from '@service-sdk/core/internal'
import type { Context, Next } from 'hono'
import { json, teamError, traceId } from '../http/envelopes.ts'
import type { NodeBindings, SimulatorFetch } from '../http/fetch-handler.ts'
import type { SimContext } from '../model/context.ts'
import { type OssOptions, ossError } from '../oss/index.ts'
import { connectionReset } from './connection-reset.ts'
import type { FaultAction, Faults, FaultTarget } from './faults.ts'
import { targetOf } from './faults.ts'

/**
 * The OSS app's fault hook: latency, silent corruption, expired credentials or an OSS error
 * before the operation runs, as the fault injector's rules say.
 */
export function ossFaultHook(sim: SimContext): NonNullable<OssOptions['beforeRequest']> {
  const { faults, state } = sim
  return async (ctx, request) => {
    const action = faults.take(
      {
        target: 'oss',
        method: ctx.method,
        path: `/${ctx.key}`,
        op: ctx.op,
        ...(ctx.partNumber ? { partNumber: ctx.partNumber } : {}),
      },
      'before',
    )
    if (!action) return undefined
    if (action.type === 'corrupt') {
      const length = Number(request.headers.get('content-length') ?? 0) || 0
      return { corruptAt: action.offset ?? Math.floor(faults.random() * length) }
    }
    if (action.type === 'latency') await sleep(action.ms)
    else if (action.type === 'expire-credentials') {
      const credential = state.data.sts.find((s) => s.accessKeyId === ctx.accessKeyId)
      if (credential) credential.expiresAt = sim.now() - 1
    } else if (action.type === 'status') {
      const code = action.ossCode ?? (action.status >= 500 ? 'InternalError' : 'InjectedFault')
      return ossError(action.status, code, 'Injected by the simulator', ctx.method === 'HEAD')
    }
    return undefined
  }
}

/**
 * Connection resets happen before any routing: on a real socket it is destroyed; in process the
 * fetch rejects as a network failure would.
 */
export function withResets(
  faults: Faults,
  target: (request: Request) => FaultTarget,
  handle: (request: Request, env?: NodeBindings) => Response | Promise<Response>,
): SimulatorFetch {
  return async (request, env) => {
    const url = new URL(request.url)
    const action = faults.take(
      { target: target(request), method: request.method, path: url.pathname + url.search },
      'reset',
    )
    if (action) {
      const socket = env?.incoming?.socket
      if (socket) {
        socket.destroy()
        return new Response(null, { status: 500 })
      }
      throw connectionReset()
    }
    return handle(request, env)
  }
}

/** Team, open and page faults: a failure in the area's own format, before or after handling. */
export function faultMiddleware(sim: SimContext) {
  return async (c: Context, next: Next) => {
    const url = new URL(c.req.url)
    const request = { target: targetOf(url.pathname), method: c.req.method, path: url.pathname + url.search }
    const before = sim.faults.take(request, 'before')
    if (before?.type === 'latency') await sleep(before.ms)
    else if (before) return failure(request.target, before)
    await next()
    const after = sim.faults.take(request, 'after')
    if (after?.type === 'latency') await sleep(after.ms)
    else if (after) {
      if (after.type === 'reset') {
        // Handled, then the connection dies before the answer: the client cannot tell.
        const socket = (c.env as NodeBindings | undefined)?.incoming?.socket
        if (socket) socket.destroy()
        else throw connectionReset()
      }
      c.res = failure(request.target, after)
    }
  }
}

const TEAM_TEXT: Record<number, string> = {
  500: 'Internal server error',
  429: 'Too many requests',
  503: 'Service unavailable',
}

function failure(target: FaultTarget, action: FaultAction): Response {
  if (action.type === 'open-code') {
    return json({
      code: action.code,
      message: action.message ?? 'Injected failure',
      result: null,
      traceId: traceId(),
    })
  }
  const status = action.type === 'status' ? action.status : 500
  const headers: Record<string, string> = {}
  if (action.type === 'status' && action.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(action.retryAfterSeconds)
  if (target === 'team') {
    const response = teamError('internal', TEAM_TEXT[status] ?? `HTTP ${status}`)
    return new Response(response.body, {
      status,
      headers: { ...Object.fromEntries(response.headers), ...headers },
    })
  }
  if (target === 'open') {
    return json(
      {
        code: String(status),
        message: TEAM_TEXT[status] ?? `HTTP ${status}`,
        result: null,
        traceId: traceId(),
      },
      status,
      headers,
    )
  }
  return new Response(`Injected failure ${status}`, { status, headers })
}
