import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'

export interface SimulatorProcess {
  urls: { base: string; open: string; app: string; oss: string }
  credentials: { teamApiKey: string; openToken: { type: string; value: string }; apiKey: string }
  pid: number
  stop(): Promise<void>
}

/** The simulator's CLI (built) in a process of its own, on free ports. */
export async function startSimulatorProcess(args: string[] = []): Promise<SimulatorProcess> {
  const cli = createRequire(import.meta.url)
    .resolve('@service-sdk/simulator/package.json')
    .replace(/package\.json$/, 'dist/cli.js')
  const child = spawn(process.execPath, [cli, '--port', '0', '--oss-port', '0', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`service-sim exited with ${code}`)))
  })
  const info = JSON.parse(line) as Omit<SimulatorProcess, 'stop' | 'pid'>
  return {
    ...info,
    pid: child.pid as number,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
