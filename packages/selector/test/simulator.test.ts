import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { selectorPageFrame } from '@service-sdk/testkit'
import type { Frame, Page } from 'playwright-core'
import { afterAll, describe, expect, test } from 'vitest'
import { browserSuite } from './browser.ts'
import { startOrigins } from './harness.ts'

// End to end: the built SDK in a host page on one site, the simulator's real selector page (not
// the scripted fake) on another, a user clicking in it. The simulator serves on 127.0.0.1; the
// host page is on `localhost`.

let sim: RunningSimulator | undefined
const suite = browserSuite({
  origins: async () => {
    sim = await startSimulator()
    return startOrigins({ hostName: 'localhost', frameSrc: [sim.urls.app] })
  },
})
afterAll(async () => {
  await sim?.stop()
})

const ADA = '1673603133161799680'
const ACME_CAMPAIGNS = '1753946835010000001'
const ACME_BRAND = '1753946835010000005'
const MY_AUTUMN = '1753946835000000003'
const HELLO = [...Buffer.from('hello, selector')]
const ALL_BYTES = Array.from({ length: 256 }, (_, i) => i)

const result = (page: Page) => page.evaluate(() => window.host.result('a'))
const frames = (page: Page) => page.evaluate(() => [window.host.frames(), window.host.dialogs()])

/** Click a folder's row (the tree item itself also holds its expanded children). */
const choose = (frame: Frame, name: string) =>
  frame.getByRole('treeitem', { name, exact: true }).locator(':scope > .row').click()

describe.skipIf(!suite.available)('against the simulator’s selector page, in Chromium', () => {
  describe.each(['choiceModal', 'selector', 'both'] as const)('page posting the %s family', (family) => {
    test('pickFolder: the theme reaches the page; clicking a team folder resolves with its ids', async (t) => {
      sim!.control.quirks.selectorFamily = family
      const page = await suite.host(t, 'esm')
      await page.evaluate(
        (appUrl) => window.host.start('a', 'pickFolder', { appUrl, theme: 'dark' }),
        sim!.urls.app,
      )
      const frame = await selectorPageFrame(page)
      expect(new URL(frame.url()).searchParams.get('file')).toBe('empty')
      await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark')
      await choose(frame, 'Acme Campaigns')
      await frame.getByRole('button', { name: 'Confirm' }).click()
      // 1753946835010000001 is beyond 2^53: it arrives as a string, every digit kept.
      expect(await result(page)).toEqual({ value: { folderId: ACME_CAMPAIGNS, orgId: '1001' } })
      expect(await frames(page)).toEqual([0, 0])
    })
  })

  test('pickFolder (IIFE build): a personal folder reports orgId 1, which orgIdForSave drops', async (t) => {
    sim!.control.quirks.selectorFamily = 'both'
    const page = await suite.host(t, 'iife')
    await page.evaluate((appUrl) => window.host.start('a', 'pickFolder', { appUrl }), sim!.urls.app)
    const frame = await selectorPageFrame(page)
    await choose(frame, 'My Campaigns')
    await choose(frame, '2026 Autumn')
    await frame.getByRole('button', { name: 'Confirm' }).click()
    expect(await result(page)).toEqual({ value: { folderId: MY_AUTUMN, orgId: '1' } })
    expect(await page.evaluate(() => window.Selector.orgIdForSave('1'))).toBeUndefined()
  })

  test('pickFolder: a page that reports the personal space without orgId resolves with orgId null', async (t) => {
    sim!.control.quirks.selectorFamily = 'both'
    sim!.control.quirks.selectorPersonalOrg = 'absent'
    t.onTestFinished(() => {
      sim!.control.quirks.selectorPersonalOrg = 'one'
    })
    const page = await suite.host(t, 'esm')
    await page.evaluate((appUrl) => window.host.start('a', 'pickFolder', { appUrl }), sim!.urls.app)
    const frame = await selectorPageFrame(page)
    await choose(frame, 'My Campaigns')
    await choose(frame, '2026 Autumn')
    await frame.getByRole('button', { name: 'Confirm' }).click()
    expect(await result(page)).toEqual({ value: { folderId: MY_AUTUMN, orgId: null } })
  })

  test('uploadWithSelector: a page that sends a 19-digit folder id as a number rejects with invalid_message', async (t) => {
    sim!.control.quirks.selectorFamily = 'selector'
    sim!.control.quirks.selectorIds = 'numbers'
    t.onTestFinished(() => {
      sim!.control.quirks.selectorIds = 'exact'
    })
    const before = sim!.control.snapshot().materials.length
    const page = await suite.host(t, 'esm')
    await page.evaluate(
      (appUrl) => window.host.start('a', 'uploadWithSelector', { appUrl, makeFiles: true }),
      sim!.urls.app,
    )
    const frame = await selectorPageFrame(page)
    await frame.locator('.file').nth(1).waitFor()
    await choose(frame, 'Acme Brand assets')
    await frame.getByRole('button', { name: 'Upload' }).click()
    const { error } = await result(page)
    expect(error).toMatchObject({ code: 'invalid_message', isRetryable: false })
    expect(error?.message).toContain('id is a number beyond 2^53')
    expect(error?.message).toContain('The files may be uploaded already.')
    expect(error?.message).not.toContain(String(Number(ACME_BRAND)))
    // They were: the page uploaded them before it answered.
    expect(sim!.control.snapshot().materials).toHaveLength(before + 2)
    expect(await frames(page)).toEqual([0, 0])
  })

  test('uploadWithSelector: the page uploads the files into the chosen folder; the assets serve the exact bytes', async (t) => {
    sim!.control.quirks.selectorFamily = 'both'
    const before = new Set(sim!.control.snapshot().materials.map((m) => m.id))
    const page = await suite.host(t, 'esm')
    await page.evaluate(
      (appUrl) =>
        window.host.start('a', 'uploadWithSelector', {
          appUrl,
          makeFiles: true,
          link: 'https://example.com/post/1',
        }),
      sim!.urls.app,
    )
    const frame = await selectorPageFrame(page)
    expect(new URL(frame.url()).searchParams.get('file')).toBeNull()
    // The files arrived through the SDK's open message.
    await frame.locator('.file').nth(1).waitFor()
    expect(await frame.locator('.file-name').allTextContents()).toEqual(['hello.txt', 'all-bytes.bin'])
    await choose(frame, 'Acme Brand assets')
    await frame.getByRole('button', { name: 'Upload' }).click()
    expect(await result(page)).toEqual({ value: { folderId: ACME_BRAND, orgId: '1001' } })
    expect(await frames(page)).toEqual([0, 0])

    const saved = sim!.control.snapshot().materials.filter((m) => !before.has(m.id))
    expect(saved.map((m) => `${m.name}.${m.extension}`)).toEqual(['hello.txt', 'all-bytes.bin'])
    for (const [material, bytes] of [
      [saved[0]!, HELLO],
      [saved[1]!, ALL_BYTES],
    ] as const) {
      expect(material).toMatchObject({
        space: 't:1001',
        folderId: ACME_BRAND,
        size: bytes.length,
        link: 'https://example.com/post/1',
        ownerUserId: ADA,
      })
      // The asset's accessUrl, as material-save hands it out (the page's own answer is gone with
      // its frame: the SDK takes the page down on success).
      const response = await fetch(
        `${sim!.urls.app}/files/${material.id}/${encodeURIComponent(`${material.name}.${material.extension}`)}`,
      )
      expect(response.status).toBe(200)
      expect([...new Uint8Array(await response.arrayBuffer())]).toEqual(bytes)
    }
  })

  test.for(['choiceModal', 'selector'] as const)(
    'uploadWithSelector with files chosen from disk through <input type=file> (%s family): the exact bytes land',
    async (family, t) => {
      sim!.control.quirks.selectorFamily = family
      const dir = mkdtempSync(join(tmpdir(), 'selector-disk-'))
      t.onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      const files: Array<[string, Buffer]> = [
        ['a.txt', Buffer.from('hello from disk')],
        ['all-bytes.bin', Buffer.from(ALL_BYTES)],
      ]
      for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes)
      const before = new Set(sim!.control.snapshot().materials.map((m) => m.id))
      const page = await suite.host(t, 'esm')
      await page.setInputFiles(
        '#files',
        files.map(([name]) => join(dir, name)),
      )
      await page.evaluate(
        (appUrl) => window.host.start('a', 'uploadWithSelector', { appUrl, chosenFiles: true }),
        sim!.urls.app,
      )
      const frame = await selectorPageFrame(page)
      await frame.locator('.file').nth(1).waitFor()
      await choose(frame, 'Acme Brand assets')
      await frame.getByRole('button', { name: 'Upload' }).click()
      expect(await result(page)).toEqual({ value: { folderId: ACME_BRAND, orgId: '1001' } })
      const saved = sim!.control.snapshot().materials.filter((m) => !before.has(m.id))
      expect(saved.map((m) => `${m.name}.${m.extension}`)).toEqual(files.map(([name]) => name))
      for (const [index, [, bytes]] of files.entries()) {
        const material = saved[index]!
        const response = await fetch(
          `${sim!.urls.app}/files/${material.id}/${encodeURIComponent(`${material.name}.${material.extension}`)}`,
        )
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
      }
    },
  )

  test('Escape in the page cancels: the call resolves null and nothing is uploaded', async (t) => {
    sim!.control.quirks.selectorFamily = 'both'
    const before = sim!.control.snapshot().materials.length
    const page = await suite.host(t, 'esm')
    await page.evaluate(
      (appUrl) => window.host.start('a', 'uploadWithSelector', { appUrl, makeFiles: true }),
      sim!.urls.app,
    )
    const frame = await selectorPageFrame(page)
    await frame.locator('.file').nth(1).waitFor()
    await choose(frame, 'Acme Brand assets')
    await page.keyboard.press('Escape')
    expect(await result(page)).toEqual({ value: null })
    expect(await frames(page)).toEqual([0, 0])
    expect(sim!.control.snapshot().materials).toHaveLength(before)
  })
})
