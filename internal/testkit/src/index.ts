export { chromiumOrSkip, type ChromiumAvailability } from './chromium.ts'
export { postgresOrSkip, type PostgresAvailability } from './postgres.ts'
export { requiredInCi } from './required.ts'
