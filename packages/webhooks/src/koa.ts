/**
 * `@service-sdk/webhooks/koa`: the receiver as Koa (2 or 3) middleware. See the README's "Express,
 * Fastify, Koa, Next.js".
 * @packageDocumentation
 */
export { webhooksKoa } from './adapters/koa.ts'
