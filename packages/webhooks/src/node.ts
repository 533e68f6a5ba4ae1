/**
 * `@service-sdk/webhooks/node`: the receiver as a `node:http` request listener that is also
 * Express middleware. See the README's "Quick start".
 * @packageDocumentation
 */
export { type NodeWebhookHandler, type NodeWebhookOptions, webhooksNode } from './adapters/node.ts'
