import { uploadProxy } from '@/lib/upload-proxy'

// The browser's createOpenClient({ proxyUrl: '/api/upload' }) calls
// /api/upload/open-api/standard/call/service/{sts-tmp,org-info,material-save} here.
export const POST = (request: Request) => uploadProxy()(request)
