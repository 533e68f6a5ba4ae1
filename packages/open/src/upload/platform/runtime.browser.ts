// The platform of the browser build: stands in for runtime.ts (see tsdown.config.ts).
export { createPlatform } from '../browser/platform.ts'
