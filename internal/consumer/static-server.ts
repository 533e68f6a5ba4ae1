import { readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }

/** A built site served as a static host would (index.html at `/`), for a browser test. */
export async function serveStatic(
  root: string,
  hostName: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = normalize(join(root, new URL(request.url ?? '/', 'http://x').pathname))
    const file =
      path.startsWith(root) && statSync(path, { throwIfNoEntry: false })?.isFile()
        ? path
        : join(root, 'index.html')
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    response.end(readFileSync(file))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${hostName}:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
