import { uploadProxy } from '@/lib/upload-proxy'

// The SDK's server code needs Node (node:sqlite for the webhook store, Web Crypto and ali-oss's
// Node build for the proxy), not the Edge runtime.
export const runtime = 'nodejs'

// The browser's createOpenClient({ proxyUrl: '/api/upload' }) calls
// /api/upload/open-api/standard/call/service/{sts-tmp,org-info,material-save} here.
export const POST = (request: Request) => uploadProxy()(request)
