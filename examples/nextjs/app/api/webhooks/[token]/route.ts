import { webhooksNext } from '@service-sdk/webhooks/next'
import { webhookReceiver } from '@/lib/webhooks'

// The SDK's server code needs Node (node:sqlite for the webhook store, Web Crypto and ali-oss's
// Node build for the proxy), not the Edge runtime.
export const runtime = 'nodejs'

// The receiver reads the raw body itself (capped while streaming), checks the token in the URL's
// last segment (404 when wrong), stores the event, and answers once it is stored. Passed as a
// function, it is created on the first delivery, not while `next build` evaluates this module.
export const { POST } = webhooksNext(webhookReceiver)
