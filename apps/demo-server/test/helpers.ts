import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { type RunningDemo, startDemo } from '../src/start.ts'

/** The demo on the simulator, on free ports, with a throwaway data dir; its log lines kept. */
export async function startTestDemo(
  env: Record<string, string> = {},
): Promise<RunningDemo & { dataDir: string; logged: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'demo-test-'))
  const config = loadConfig({ PORT: '0', DEMO_DATA_DIR: dataDir, ...env })
  const logged: string[] = []
  const line = (message: string, error?: unknown) =>
    void logged.push(
      error === undefined ? message : `${message}: ${String(error)} ${(error as Error)?.stack ?? ''}`,
    )
  const demo = await startDemo(config, { log: { info: line, warn: line, error: line } })
  await demo.subscribed
  return {
    ...demo,
    dataDir,
    logged,
    async stop() {
      await demo.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Bytes 0..255 repeated: easy to check end to end. */
export function pattern(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff
  return bytes
}
