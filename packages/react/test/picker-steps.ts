import type { SimulatorControl } from '@service-sdk/simulator'
import { selectorPageFrame } from '@service-sdk/testkit'
import type { Frame, Page } from 'playwright-core'
import { expect } from 'vitest'

/** Clicks a folder of the selector page's tree. */
export const choose = (frame: Frame, name: string) =>
  frame.getByRole('treeitem', { name, exact: true }).locator(':scope > .row').click()

/** Flow 2: clicks `name` in the open selector page and confirms; the hook's state is then `picked`. */
export async function confirmFolder(page: Page, frame: Frame, name: string, folderId: string): Promise<void> {
  await choose(frame, name)
  await frame.getByRole('button', { name: 'Confirm' }).click()
  await page.waitForFunction(() => document.querySelector('#picker')?.textContent?.includes('picked'))
  expect(JSON.parse((await page.textContent('#picker')) || 'null')).toEqual({
    status: 'picked',
    choice: { folderId, orgId: '1001' },
  })
}

/**
 * Flow 1 of the test page's picker: the selector page uploads its two files into `folder`
 * ("Acme Brand assets"); checks the choice and the two assets saved there.
 */
export async function uploadThroughPicker(
  page: Page,
  control: SimulatorControl,
  folderId: string,
): Promise<void> {
  const before = control.snapshot().materials.length
  const choice = page.evaluate(() => window.pickerUpload())
  const frame = await selectorPageFrame(page)
  await frame.locator('.file').nth(1).waitFor()
  await choose(frame, 'Acme Brand assets')
  await frame.getByRole('button', { name: 'Upload' }).click()
  expect(await choice).toEqual({ folderId, orgId: '1001' })
  const added = control.snapshot().materials.slice(before)
  expect(added.map((m) => [m.name, String(m.folderId)]).sort()).toEqual([
    ['all-bytes', folderId],
    ['hello', folderId],
  ])
}
