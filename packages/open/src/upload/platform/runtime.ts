// The platform of the default (Node) build. The browser build replaces this module with
// runtime.browser.ts (see tsdown.config.ts), so nothing of node/ is bundled for browsers.
export { createPlatform } from '../node/platform.ts'
