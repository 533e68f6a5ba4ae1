// A browser application built with Vite from the installed tarballs: the selector picks a folder
// in the simulator's real page (a real call, cross-origin), and the open client is bundled through
// its `browser` export condition.
import { createOpenClient } from '@service-sdk/open'
import { pickFolder } from '@service-sdk/selector'

declare global {
  interface Window {
    pick(appUrl: string): Promise<unknown>
    openClient: unknown
  }
}

window.openClient = createOpenClient({ openUrl: location.origin, token: { type: 'Bearer', value: 't' } })
window.pick = (appUrl) => pickFolder({ appUrl })
