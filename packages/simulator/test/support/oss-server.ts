import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { createOssApp, OSS_SERVER_OPTIONS, type OssOptions } from '../../src/oss/app.ts'

export interface RunningOss {
  port: number
  /** What ali-oss takes as `endpoint`: an IP, so the bucket travels in the Host header. */
  endpoint: string
  close(): Promise<void>
}

/** The OSS app on 127.0.0.1 and a free port, as the simulator serves it. */
export function startOss(options: OssOptions): Promise<RunningOss> {
  const app = createOssApp(options)
  return new Promise((resolve, reject) => {
    const server: ServerType = serve(
      { fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions: OSS_SERVER_OPTIONS },
      (info: AddressInfo) => {
        resolve({
          port: info.port,
          endpoint: `http://127.0.0.1:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done())
              if ('closeAllConnections' in server) server.closeAllConnections()
            }),
        })
      },
    )
    server.once('error', reject)
  })
}
