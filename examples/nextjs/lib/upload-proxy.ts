import { createUploadProxy, type UploadProxy } from '@service-sdk/open/proxy'
import { env } from './env'
import { userOf } from './session'

let proxy: UploadProxy | undefined

/** The upload proxy, created on the first request (the token is read at run time, not at build time). */
export function uploadProxy(): UploadProxy {
  proxy ??= createUploadProxy({
    openUrl: env('SERVICE_OPEN_URL'),
    token: { type: env('SERVICE_OPEN_TOKEN_TYPE'), value: env('SERVICE_OPEN_TOKEN') },
    // Refusals of the server's token and unreachable service are logged here (secrets redacted).
    logger: console,
    // Signed in: upload into this user's own directory. Not signed in: 401.
    authorize: (request) => {
      const user = userOf(request)
      return user ? { id: user } : false
    },
  })
  return proxy
}
