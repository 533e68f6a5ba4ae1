import pkg from '../package.json' with { type: 'json' }

/** The SDK's version, sent in the User-Agent. */
export const VERSION: string = pkg.version
