import { chromiumOrSkip } from '@service-sdk/testkit'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, type TestContext } from 'vitest'
import { type Build, type Origins, requireBuild, startOrigins } from './harness.ts'

export interface Suite {
  available: boolean
  origins: Origins
  /**
   * A fresh host page (own browser context) on the host origin, with the given build of the SDK
   * loaded. When the test finishes: no uncaught error in it and no CSP violation (the SDK must
   * work under a strict policy), then the context closes.
   */
  host(test: TestContext, build: Build, viewport?: { width: number; height: number }): Promise<Page>
  /** The host page's uncaught errors so far; a test that expects some removes them. */
  errors(page: Page): string[]
}

/**
 * One Chromium and three origins per test file; tests may run concurrently. `origins` replaces
 * how the origins are started (before the browser), e.g. to start a real selector app first.
 */
export function browserSuite(options: { origins?: () => Promise<Origins> } = {}): Suite {
  const chromium = chromiumOrSkip()
  let browser: Browser | undefined
  const suite = { available: chromium.available } as Suite
  const errorsOf = new WeakMap<Page, string[]>()
  suite.errors = (page) => errorsOf.get(page) ?? []

  beforeAll(async () => {
    if (!chromium.available) return
    requireBuild()
    suite.origins = await (options.origins ?? startOrigins)()
    browser = await chromium.launch()
  })
  afterAll(async () => {
    await browser?.close()
    await suite.origins?.close()
  })
  suite.host = async (test, build, viewport = { width: 1280, height: 800 }) => {
    const context = await browser!.newContext({ viewport })
    const errors: string[] = []
    test.onTestFinished(async () => {
      try {
        expect(errors, 'uncaught errors in the host page').toEqual([])
        expect(await page.evaluate(() => window.leaks.violations()), 'CSP violations').toEqual([])
      } finally {
        await context.close()
      }
    })
    const page = await context.newPage()
    errorsOf.set(page, errors)
    page.on('pageerror', (e) => errors.push(String(e)))
    await page.goto(`${suite.origins.host}/${build}.html`)
    await page.waitForFunction((b) => window.ready === b, build)
    return page
  }
  return suite
}
