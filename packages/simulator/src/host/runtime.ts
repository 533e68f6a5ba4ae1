/**
 * The oldest Node the simulator supports: the SDK's (the root README; every `engines.node` is
 * `^22.13.0 || >=24`, a test checks). Request bodies are parsed without the JSON reviver's
 * `context.source`, so 19-digit ids are read exactly on every supported Node.
 */
export const MIN_NODE = '22.13.0'

/** Thrown by `startSimulator()` (and so `service-sim`) on a Node older than `MIN_NODE`. */
export class UnsupportedNodeError extends Error {
  readonly code = 'unsupported_node'
  readonly required: string
  readonly actual: string

  constructor(actual: string, required: string = MIN_NODE) {
    super(
      `The simulator needs Node ${required} or later; this is Node ${actual}. Upgrade Node (22 or 24 LTS recommended).`,
    )
    this.name = 'UnsupportedNodeError'
    this.required = required
    this.actual = actual
  }
}

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((p) => Number.parseInt(p, 10) || 0)
}

/** Whether `actual` (e.g. `process.versions.node`) is at least `required`. */
export function atLeast(actual: string, required: string): boolean {
  const a = parts(actual)
  const r = parts(required)
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (r[i] ?? 0)) return (a[i] ?? 0) > (r[i] ?? 0)
  }
  return true
}

/** Refuses, with one clear typed error, to run on a Node older than `MIN_NODE`. */
export function assertSupportedNode(actual: string = process.versions.node): void {
  if (!atLeast(actual, MIN_NODE)) throw new UnsupportedNodeError(actual)
}
