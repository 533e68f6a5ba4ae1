/**
 * `@service-sdk/open/proxy`: the server side of browser uploads. Server-only: it holds the open
 * API token.
 * @packageDocumentation
 */
export { createUploadProxy, type UploadProxy } from './handler.ts'
export type {
  UploadProxyAuthorize,
  UploadProxyCaller,
  UploadProxyOptions,
} from './options.ts'
