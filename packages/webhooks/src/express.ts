/**
 * `@service-sdk/webhooks/express`: the receiver as an Express (4 or 5) handler. See the README's
 * "Express, Fastify, Koa, Next.js".
 * @packageDocumentation
 */
export { keepRawBody, webhooksExpress } from './adapters/express.ts'
