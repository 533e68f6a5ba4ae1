import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { requiredInCi } from './required.ts'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

// Without the background-networking flags Chromium keeps dialling Google on this closed network.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface ChromiumAvailability {
  available: boolean
  /** Launch a fresh headless Chromium; only call when `available`. */
  launch(): Promise<Browser>
}

/** Debian's Chromium through playwright-core, or a loud skip (a failure under CI). */
export function chromiumOrSkip(): ChromiumAvailability {
  const available = existsSync(CHROMIUM_PATH)
  if (!available) requiredInCi('Chromium', `no executable at ${CHROMIUM_PATH}; apt-get install chromium`)
  return {
    available,
    launch: () => chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS }),
  }
}
