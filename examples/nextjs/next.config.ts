import { join } from 'node:path'
import type { NextConfig } from 'next'

// In this repository the SDK packages are workspace links outside the app's folder: Turbopack and
// the output tracing look from the repository's root. In your own app (packages from the
// registry) neither line is needed.
const root = join(import.meta.dirname, '..', '..')

const config: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  // Server code that Node loads as it is: the webhook store uses node:sqlite, the proxy ali-oss's
  // sibling code paths; neither needs bundling on the server.
  serverExternalPackages: ['@service-sdk/webhooks', '@service-sdk/open', 'ali-oss'],
}

export default config
