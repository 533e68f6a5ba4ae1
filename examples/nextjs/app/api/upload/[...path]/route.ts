import { uploadProxy } from '@/lib/upload-proxy'

// The SDK's server code needs Node here (node:sqlite for the webhook store; node:crypto for this
// example's signed session cookie), not the Edge runtime.
export const runtime = 'nodejs'

// The browser's createOpenClient({ proxyUrl: '/api/upload' }) calls
// /api/upload/open-api/standard/call/service/{org-info,material-save} and /api/upload/oss/sign here.
export const POST = (request: Request) => uploadProxy()(request)
