/**
 * `@service-sdk/webhooks/next`: the receiver as a Next.js App Router route. See the README's
 * "Express, Fastify, Koa, Next.js".
 * @packageDocumentation
 */
export { type NextWebhookRoute, webhooksNext } from './adapters/next.ts'
