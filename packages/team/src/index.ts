export { MAX_EXPIRY_HOURS, type ResponseInfo, type WithResponse, withResponse } from '@service-sdk/core'
export { checkCallbackUrl } from './callback-url.ts'
export {
  createTeamClient,
  type ImpersonateOptions,
  type TeamClient,
  type TeamClientOptions,
} from './client.ts'
export {
  embedImpersonation,
  IMPERSONATION_ALLOW,
  IMPERSONATION_SANDBOX,
  type ImpersonationIframe,
} from './embed.ts'
