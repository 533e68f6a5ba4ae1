import type { Frame, Page } from 'playwright-core'

/**
 * The simulator's folder-selector page inside the iframe `iframe` of `page`, once it can be used.
 * Its tree is in the HTML and its script is deferred: a click on a row in between is lost (no
 * folder is selected, Confirm stays disabled), which a loaded machine made happen in CI. Once the
 * document has finished loading, the deferred script has run and bound its handlers.
 */
export async function selectorPageFrame(page: Page, iframe = 'iframe'): Promise<Frame> {
  const element = await page.waitForSelector(iframe, { state: 'attached' })
  const frame = await element.contentFrame()
  if (!frame) throw new Error(`${iframe} has no frame`)
  await frame.waitForSelector('[role="tree"]')
  await frame.waitForFunction(() => document.readyState === 'complete')
  return frame
}
