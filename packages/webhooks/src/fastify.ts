/**
 * `@service-sdk/webhooks/fastify`: the receiver as a Fastify 5 plugin. See the README's "Express,
 * Fastify, Koa, Next.js".
 * @packageDocumentation
 */
export { type FastifyWebhookOptions, webhooksFastify } from './adapters/fastify.ts'
