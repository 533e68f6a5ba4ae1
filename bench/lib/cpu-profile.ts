/**
 * V8 CPU profiles (the `.cpuprofile` format `node --cpu-prof` writes and the inspector's
 * Profiler.stop returns), summarised: the time sampled in each function itself (self time),
 * largest first, or grouped by whatever the caller maps each frame to.
 */
import { Session } from 'node:inspector/promises'
import { median } from './report.ts'

export interface CallFrame {
  functionName: string
  url: string
  /** 0-based. */
  lineNumber: number
}

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>
  samples: number[]
  timeDeltas: number[]
}

/**
 * Self time (µs) of each node of the profile, with the node's frame and its parent's id: each
 * sample counts for the profile's median interval. (Not the time to the next sample: on a busy
 * machine the sampler is sometimes not scheduled for milliseconds, and that gap would be charged
 * to whichever function happened to be sampled before it.)
 */
export function selfTimes(
  profile: CpuProfile,
): Array<{ id: number; parent: number | undefined; frame: CallFrame; micros: number }> {
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const interval = median(profile.timeDeltas.slice(1))
  const micros = new Map<number, number>()
  for (const id of profile.samples) micros.set(id, (micros.get(id) ?? 0) + interval)
  return profile.nodes.map((node) => ({
    id: node.id,
    parent: parent.get(node.id),
    frame: node.callFrame,
    micros: micros.get(node.id) ?? 0,
  }))
}

/**
 * Self time grouped by `groupOf(frame, parentGroup)`, called from the root down so a frame can
 * inherit its caller's group (native functions have no url): share of the total, largest first.
 */
export function groupedSelfTime(
  profile: CpuProfile,
  groupOf: (frame: CallFrame, parentGroup: string | undefined) => string,
): Array<{ group: string; micros: number; share: number }> {
  const nodes = selfTimes(profile)
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const groups = new Map<number, string>()
  const resolve = (id: number): string => {
    const known = groups.get(id)
    if (known !== undefined) return known
    const node = byId.get(id)!
    const group = groupOf(node.frame, node.parent === undefined ? undefined : resolve(node.parent))
    groups.set(id, group)
    return group
  }
  const totals = new Map<string, number>()
  for (const node of nodes) totals.set(resolve(node.id), (totals.get(resolve(node.id)) ?? 0) + node.micros)
  const all = [...totals.values()].reduce((a, b) => a + b, 0) || 1
  return [...totals]
    .map(([group, micros]) => ({ group, micros, share: micros / all }))
    .sort((a, b) => b.micros - a.micros)
}

/** A frame as `name (file:line)`, the file's path shortened to its last two segments. */
export function frameName(frame: CallFrame): string {
  const file = frame.url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/')
  return file
    ? `${frame.functionName || '(anonymous)'} (${file}:${frame.lineNumber + 1})`
    : frame.functionName
}

/** A CPU profile of this process while `run` runs, sampled every `intervalMicros`. */
export async function profileWhile(run: () => Promise<void>, intervalMicros = 100): Promise<CpuProfile> {
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: intervalMicros })
    await session.post('Profiler.start')
    await run()
    const { profile } = await session.post('Profiler.stop')
    return profile as unknown as CpuProfile
  } finally {
    session.disconnect()
  }
}
