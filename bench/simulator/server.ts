/**
 * A server for bench/simulator, in a process of its own (forked, with an IPC channel): the built
 * simulator (`startSimulator`, objects on disk in `<dir>`), or with `--sink` a plain node:http
 * server that drains every body and hashes nothing (what loopback HTTP alone costs). It sends
 * `{base, oss, openUrl, token}` once listening; on 'start' it resets its CPU clocks, on 'stop' it
 * replies with the CPU time spent since (the whole process, and its main thread).
 *
 *   node server.ts <dir> [--sink]
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startSimulator } from '@service-sdk/simulator'

async function listen(): Promise<{ address: Record<string, unknown>; close(): Promise<void> }> {
  if (!process.argv.includes('--sink')) {
    const sim = await startSimulator({ stateDir: process.argv[2] ?? '' })
    return {
      address: { openUrl: sim.urls.open, token: sim.credentials.openToken },
      close: () => sim.stop(),
    }
  }
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(200, { etag: '"0"' }).end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    address: { sinkUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const running = await listen()
let cpu = process.cpuUsage()
let thread = process.threadCpuUsage()
process.on('message', (message) => {
  if (message === 'start') {
    cpu = process.cpuUsage()
    thread = process.threadCpuUsage()
  } else if (message === 'stop') {
    process.send?.({ cpu: process.cpuUsage(cpu), thread: process.threadCpuUsage(thread) })
  }
})
process.on('disconnect', () => void running.close().then(() => process.exit(0)))
process.send?.(running.address)
