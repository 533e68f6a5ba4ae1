/**
 * `@service-sdk/webhooks/console`: a page over the webhook inbox, and its JSON API, for the
 * people who run the receiver: events by status, type, time and order key, one event's body and
 * last error, requeue, replay, prune. A Web-standard handler (`fetch(request)`), with
 * `consoleNode()` for Node's `http` and Express. Closed by default: nothing is served without the
 * `authorize` you give. See the README's "Console".
 * @packageDocumentation
 */
export type { Action } from './console/actions.ts'
export { createInboxConsole, type InboxConsole, type InboxSummary } from './console/handler.ts'
export { type ConsoleListener, consoleNode } from './console/node.ts'
export type { ConsoleAuthorize, InboxConsoleOptions } from './console/options.ts'
