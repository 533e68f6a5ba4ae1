export { type ChromiumAvailability, chromiumOrSkip } from './chromium.ts'
export { type OlderNode, olderNodeOrSkip } from './older-node.ts'
export { type PostgresAvailability, postgresOrSkip } from './postgres.ts'
export { requiredInCi } from './required.ts'
