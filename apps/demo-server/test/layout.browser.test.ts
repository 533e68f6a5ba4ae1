import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromiumOrSkip, selectorPageFrame } from '@service-sdk/testkit'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestDemo } from './helpers.ts'

// The demo's layout in real Chromium, on a 390 px phone and a 1280 px screen: no page scrolls
// sideways, the sidebar's header stays at the top of a tall page, and the toasts never cover an
// upload row's buttons. Screenshots of each page go to demo-web/test-results/layout.

const WEB_DIST = resolve(import.meta.dirname, '../../demo-web/dist/index.html')
const SHOTS = resolve(import.meta.dirname, '../../demo-web/test-results/layout')
/** Each page: its path, its heading, and what shows once its data is in (what may widen it). */
const PAGES = [
  ['/', 'Welcome', '.facts .badge-success'],
  ['/team', 'Team', 'td:has-text("ada@acme.com")'],
  ['/upload', 'Upload', 'text=Flow 2 · Upload through your server'],
  ['/spaces', 'Spaces', 'text=/You can upload into \\d+ of \\d+ spaces/'],
  ['/events', 'Events', 'h1'],
] as const
const WIDTHS = [390, 1280] as const

const chromium = chromiumOrSkip()
let demo: Awaited<ReturnType<typeof startTestDemo>>
let browser: Browser

beforeAll(async () => {
  if (!chromium.available) return
  if (!existsSync(WEB_DIST))
    throw new Error('The demo page is not built: run `pnpm build` first (the root test command does).')
  for (const width of WIDTHS) mkdirSync(join(SHOTS, String(width)), { recursive: true })
  demo = await startTestDemo()
  browser = await chromium.launch()
})

afterAll(async () => {
  await browser?.close()
  await demo?.stop()
})

async function open(width: number, path: string, heading: string, loaded = 'h1'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 800 } })
  page.setDefaultTimeout(20_000)
  await page.goto(`${demo.url}/#${path}`)
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor()
  await page.locator(loaded).first().waitFor()
  return page
}

const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

describe.skipIf(!chromium.available)('the demo laid out', { timeout: 120_000 }, () => {
  test.each(PAGES)('%s: focus is always visible, from the keyboard', async (path, heading, loaded) => {
    const page = await open(1280, path, heading, loaded)
    try {
      const hidden: string[] = []
      let reached = 0
      for (let step = 0; step < 30; step++) {
        await page.keyboard.press('Tab')
        const focus = await page.evaluate(() => {
          const element = document.activeElement
          if (!element || element === document.body) return undefined
          const style = getComputedStyle(element)
          const outlined = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0
          return {
            what: `${element.tagName.toLowerCase()} ${element.textContent?.trim().slice(0, 30) ?? ''}`,
            shown: outlined || style.boxShadow !== 'none',
          }
        })
        if (!focus) continue
        reached++
        if (!focus.shown) hidden.push(focus.what)
      }
      expect(reached, `${path}: elements reached with Tab`).toBeGreaterThan(3)
      expect(hidden, `${path}: focused without a visible focus ring`).toEqual([])
    } finally {
      await page.close()
    }
  })

  describe.each(WIDTHS)('%i px wide', (width) => {
    test.each(PAGES)('%s: no horizontal scroll', async (path, heading, loaded) => {
      const page = await open(width, path, heading, loaded)
      try {
        await page.screenshot({
          path: join(SHOTS, `${width}${path === '/' ? '/overview' : path}.png`),
          fullPage: true,
        })
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }))
        expect(innerWidth).toBe(width)
        expect(scrollWidth, `${path} at ${width} px`).toBeLessThanOrEqual(innerWidth)
      } finally {
        await page.close()
      }
    })

    test('a tall upload page: the sidebar header stays at the top, the toasts off the rows’ buttons', async () => {
      const page = await open(width, '/upload', 'Upload')
      try {
        const flow = page.getByRole('region', { name: 'Flow 2 · Upload through your server' })
        await flow.getByRole('button', { name: 'Choose a folder…' }).click()
        const frame = await selectorPageFrame(page, 'dialog iframe')
        await frame
          .getByRole('treeitem', { name: 'Acme Brand assets', exact: true })
          .locator(':scope > .row')
          .click()
        await frame.getByRole('button', { name: 'Confirm' }).click()
        const files = Array.from({ length: 14 }, (_, i) => ({
          name: `note-${i}.txt`,
          mimeType: 'text/plain',
          buffer: Buffer.from(`note ${i}`),
        }))
        await flow.getByLabel('Files to upload through the server').setInputFiles(files)
        await flow.getByRole('button', { name: `Upload ${files.length} files` }).click()
        await expect
          .poll(() => flow.locator('.upload-item[data-state="done"]').count(), { timeout: 30_000 })
          .toBe(files.length)

        // The rows at the bottom of the viewport, where the toasts used to be.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
        const { scrollHeight, innerHeight } = await page.evaluate(() => ({
          scrollHeight: document.documentElement.scrollHeight,
          innerHeight: window.innerHeight,
        }))
        expect(scrollHeight).toBeGreaterThan(innerHeight * 1.5)
        const brand = await page.locator('.sidebar .brand img').boundingBox()
        expect(brand?.y, 'the sidebar header after scrolling to the bottom').toBeLessThanOrEqual(24)

        // Every toast lies on the sidebar (the top bar on a phone), which holds no row.
        const bar = await page.locator('.sidebar').boundingBox()
        const toasts = await Promise.all(
          (await page.locator('.toast:visible').all()).map((t) => t.boundingBox()),
        )
        expect(toasts.length).toBeGreaterThan(0)
        for (const toast of toasts) {
          if (!toast || !bar) throw new Error('no box')
          expect(toast.x).toBeGreaterThanOrEqual(bar.x)
          expect(toast.y).toBeGreaterThanOrEqual(bar.y)
          expect(toast.x + toast.width).toBeLessThanOrEqual(bar.x + bar.width)
          expect(toast.y + toast.height).toBeLessThanOrEqual(bar.y + bar.height)
        }
        // And no row button a user can see (one not scrolled under the top bar) is under a toast.
        const buttons = await page.locator('.upload-item .upload-actions :is(button, a)').evaluateAll((all) =>
          all
            .map((b) => b.getBoundingClientRect())
            .filter((r) => {
              const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
              return hit !== null && hit.closest('.upload-actions') !== null
            })
            .map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })),
        )
        expect(buttons.length).toBeGreaterThan(0)
        for (const toast of toasts)
          for (const button of buttons)
            expect(
              overlap(toast!, button),
              `a toast ${JSON.stringify(toast)} over a row's button ${JSON.stringify(button)}`,
            ).toBe(false)
        await page.screenshot({ path: join(SHOTS, `${width}/upload-tall-with-toasts.png`) })
      } finally {
        await page.close()
      }
    })
  })
})
