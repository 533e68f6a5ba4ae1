/**
 * The webhooks bench's loads: max throughput with autocannon (closed loop, 64 connections in all)
 * and the open-loop paced load (../paced-load.ts), each on one or several servers at once, and
 * the CPU per acknowledged event of every process involved: the servers, the load generator (this
 * process) and the local PostgreSQL (../pg-cpu.ts).
 */
import autocannon from 'autocannon'
import { eventBody } from '../event-body.ts'
import { type PacedResult, pacedLoad } from '../paced-load.ts'
import { ownCpuMicros, postgresCpuSince, postgresCpuSnapshot } from '../pg-cpu.ts'
import { cpuMicros, type Running, settled } from './servers.ts'

export const CONNECTIONS = 64

interface Load {
  rps: number
  p99: number
  ok: number
  bad: number
}

async function autocannonLoad(url: string, connections: number, seconds: number): Promise<Load> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections,
    duration: seconds,
    requests: [
      { setupRequest: (request: Record<string, unknown>) => ({ ...request, body: eventBody('bench') }) },
    ],
  })
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    ok: result['2xx'],
    bad: result.non2xx + result.errors + result.timeouts,
  }
}

/** One max run, the servers together (one autocannon each, connections split), and its CPU. */
export interface MaxRun extends Load {
  /** CPU per acknowledged event, µs: the servers' processes, summed. */
  serverCpu: number
  /** CPU per acknowledged event of the load generator, µs. */
  loadCpu: number
  /** CPU per acknowledged event of the local PostgreSQL (every postgres process), µs. */
  pgCpu: number | undefined
  /** Everything on the machine per event: load generator + servers (+ PostgreSQL when counted). */
  machineCpu: number
}

export async function maxRun(
  servers: Running[],
  token: string,
  options: { seconds: number; processing: boolean; postgres: boolean },
): Promise<MaxRun> {
  const before = await Promise.all(servers.map(cpuMicros))
  const pgBefore = options.postgres ? postgresCpuSnapshot() : undefined
  const loadBefore = ownCpuMicros()
  const share = Math.max(1, Math.round(CONNECTIONS / servers.length))
  const runs = await Promise.all(
    servers.map((s) => autocannonLoad(`${s.url}/webhooks/${token}`, share, options.seconds)),
  )
  const loadCpu = ownCpuMicros() - loadBefore
  // A receiver's processing of what it stored counts too: measured once its backlog is done.
  for (const server of servers) await settled(server, options.processing)
  const pgCpu = options.postgres ? postgresCpuSince(pgBefore) : undefined
  const after = await Promise.all(servers.map(cpuMicros))
  const serverCpu = after.reduce((a, v, i) => a + v - before[i]!, 0)
  const ok = runs.reduce((a, r) => a + r.ok, 0)
  const events = Math.max(1, ok)
  const perEvent = {
    serverCpu: serverCpu / events,
    loadCpu: loadCpu / events,
    pgCpu: pgCpu === undefined ? undefined : pgCpu / events,
  }
  return {
    rps: runs.reduce((a, r) => a + r.rps, 0),
    p99: Math.max(...runs.map((r) => r.p99)),
    ok,
    bad: runs.reduce((a, r) => a + r.bad, 0),
    ...perEvent,
    machineCpu: perEvent.serverCpu + perEvent.loadCpu + (perEvent.pgCpu ?? 0),
  }
}

/** A warm-up: two seconds of max load, not measured. */
export async function warmUp(servers: Running[], token: string, processing: boolean): Promise<void> {
  await Promise.all(servers.map((s) => autocannonLoad(`${s.url}/webhooks/${token}`, 32, 2)))
  for (const server of servers) await settled(server, processing)
}

/** Open-loop load at `rate` requests/s spread over the servers in turn. */
export function pacedRun(
  servers: Running[],
  token: string,
  rate: number,
  seconds: number,
): Promise<PacedResult> {
  return pacedLoad({
    urls: servers.map((s) => `${s.url}/webhooks/${token}`),
    rate,
    seconds,
    connections: CONNECTIONS,
    body: () => eventBody('bench'),
  })
}
