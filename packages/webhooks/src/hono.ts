/**
 * `@service-sdk/webhooks/hono`: the receiver as a Hono handler. See the README's "Quick start".
 * @packageDocumentation
 */
export { webhooksHono } from './adapters/hono.ts'
