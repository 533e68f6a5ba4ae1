import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/** `script` of this directory in a Node process of its own; arguments that are not strings go as JSON. */
export function childProcess(script: string, args: unknown[]): ChildProcess {
  return spawn(
    process.execPath,
    [join(import.meta.dirname, script), ...args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)))],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
}

/** The first line the process prints (its figures, or the server's URLs). */
export async function firstLine(process_: ChildProcess): Promise<string> {
  const lines = createInterface({ input: process_.stdout! })
  for await (const line of lines) return line
  throw new Error('the process printed nothing')
}
