// A page that only creates the client (the size check of browser-size.test.ts).
import { createOpenClient } from '@service-sdk/open'

Object.assign(globalThis, { createOpenClient })
