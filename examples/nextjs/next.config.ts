import { join } from 'node:path'
import type { NextConfig } from 'next'

// In this repository the SDK packages are workspace links outside the app's folder: Turbopack and
// the output tracing look from the repository's root. In your own app (packages from the
// registry) neither line is needed.
const root = join(import.meta.dirname, '..', '..')

const config: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  // Server code that Node loads as it is: the proxy's ali-oss, whose code paths need no bundling
  // on the server. Next.js keeps external only packages it finds under node_modules: here, where
  // the SDK packages are workspace links, it bundles them anyway. @service-sdk/webhooks needs no
  // entry: bundled or external, its SQLite store finds its worker thread (see its README).
  serverExternalPackages: ['@service-sdk/open', 'ali-oss'],
}

export default config
