// `pnpm start`: serves the built page (`pnpm build`) and the upload proxy on one origin.
// `pnpm dev`: the same server with Vite's dev server (hot reload) in front of the page.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { createApp } from './app.ts'

const required = (name: string): string => {
  const value = process.env[name]
  if (!value) {
    console.error(`${name} is not set: see README.md (the simulator prints every SERVICE_* variable).`)
    process.exit(1)
  }
  return value
}

const root = join(import.meta.dirname, '..')
const dev = process.argv.includes('--dev')
const app = createApp({
  openUrl: required('SERVICE_OPEN_URL'),
  token: { type: required('SERVICE_OPEN_TOKEN_TYPE'), value: required('SERVICE_OPEN_TOKEN') },
  appUrl: required('SERVICE_APP_URL'),
  dist: dev ? undefined : join(root, 'dist'),
})
const api = getRequestListener(app.fetch)
const vite = dev
  ? await (await import('vite')).createServer({ root, server: { middlewareMode: true }, appType: 'spa' })
  : undefined

const server = createServer((request, response) => {
  if (vite && !request.url?.startsWith('/api/')) return vite.middlewares(request, response)
  return api(request, response)
})
server.listen(Number(process.env.PORT ?? 3000), 'localhost', () => {
  console.log(`Listening on http://localhost:${(server.address() as AddressInfo).port}`)
})
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    server.close()
    void vite?.close()
  })
