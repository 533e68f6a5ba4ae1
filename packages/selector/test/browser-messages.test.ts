import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { browserSuite } from './browser.ts'
import { selectorFrame } from './harness.ts'

// Every answer the page may give settles the session: ids as digit strings or safe integers, a
// personal space without orgId, and, for a known message whose payload cannot be used, a typed
// rejection instead of a hang. The page is on another origin, so its messages arrive through
// structured clone, as in production: a number beyond 2^53 is already rounded when it arrives.
const suite = browserSuite()
const app = (query: Record<string, string> = {}) => `${suite.origins.app}/?${new URLSearchParams(query)}`
const result = (page: Page, name = 'a') => page.evaluate((n) => window.host.result(n), name)

const BIG = '1673603133161799680'
// How JavaScript prints BIG once it has been a number: the rounded id that must never come out.
const ROUNDED = String(Number(BIG))

type Flow = 'pickFolder' | 'uploadWithSelector'

/** Opens a session of `flow` against the fake page, and waits until the page has our message. */
async function openSession(page: Page, flow: Flow, family: string, name = 'a') {
  await page.evaluate(
    ([appUrl, flow, name]) => {
      window.host.create(name, { appUrl, ...(flow === 'uploadWithSelector' && { makeFiles: true }) })
      void window.host.open(name)
    },
    [app({ family }), flow, name] as const,
  )
  const frame = await selectorFrame(page)
  await frame.waitForFunction(() => window.fake.received.length > 0)
  return frame
}

describe.skipIf(!suite.available).concurrent('in Chromium (ESM build): page answers', () => {
  describe.each(['choiceModal', 'selector'] as const)('%s message family', (family) => {
    describe.each(['pickFolder', 'uploadWithSelector'] as const)('%s', (flow) => {
      test('a success without orgId resolves with orgId null: the personal space', async (t) => {
        const page = await suite.host(t, 'esm')
        const frame = await openSession(page, flow, family)
        await frame.evaluate((id) => window.fake.send('success', { payLoad: { id } }), BIG)
        expect(await result(page)).toEqual({ value: { folderId: BIG, orgId: null } })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual([
          'loaded',
          { event: 'success', detail: { folderId: BIG, orgId: null } },
        ])
        expect(await page.evaluate(() => window.Selector.orgIdForSave(null))).toBeUndefined()
      })

      test('a success with orgId null resolves with orgId null; ids as safe integers are accepted', async (t) => {
        const page = await suite.host(t, 'esm')
        const frame = await openSession(page, flow, family)
        await frame.evaluate(() =>
          window.fake.send('success', { payLoad: { id: Number.MAX_SAFE_INTEGER, orgId: null } }),
        )
        expect(await result(page)).toEqual({ value: { folderId: '9007199254740991', orgId: null } })
      })

      test('an id beyond 2^53 sent as a number rejects with invalid_message, naming the problem, never a rounded id', async (t) => {
        const page = await suite.host(t, 'esm')
        const frame = await openSession(page, flow, family)
        // Sent as a JSON number by the page: rounded by the time it is a JavaScript number.
        await frame.evaluate(
          (id) => window.fake.send('success', { payLoad: { id: Number(id), orgId: 7 } }),
          BIG,
        )
        const { error, value } = await result(page)
        expect(value).toBeUndefined()
        expect(error).toMatchObject({ name: 'SelectorError', code: 'invalid_message', isRetryable: false })
        expect(error?.message).toContain('unusable success message: id is a number beyond 2^53')
        expect(error?.message).not.toContain(ROUNDED)
        // Flow 1: the page reports success after uploading; say so, so nobody uploads twice blindly.
        expect(error?.message.includes('The files may be uploaded already.')).toBe(
          flow === 'uploadWithSelector',
        )
        // No success reached the handlers, and the page is gone.
        expect(await page.evaluate(() => window.host.events('a'))).toEqual(['loaded'])
        expect(await page.evaluate(() => [window.host.frames(), window.host.dialogs()])).toEqual([0, 0])
      })
    })
  })

  test('an orgId beyond 2^53 sent as a number rejects too', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openSession(page, 'pickFolder', 'choiceModal')
    await frame.evaluate(
      (id) => window.fake.send('success', { payLoad: { id: '5', orgId: Number(id) } }),
      BIG,
    )
    const { error } = await result(page)
    expect(error).toMatchObject({ code: 'invalid_message' })
    expect(error?.message).toContain('orgId is a number beyond 2^53')
    expect(error?.message).not.toContain(ROUNDED)
  })

  // Each problem's wording is unit-tested (src/messages.test.ts); here, one of each kind, end to end.
  test.for([
    ['pickFolder', 'choiceModal', null, 'payLoad is not an object'],
    ['uploadWithSelector', 'selector', { orgId: 7 }, 'id is missing'],
    ['pickFolder', 'selector', { id: 'abc', orgId: 7 }, 'id is not an integer id'],
    ['uploadWithSelector', 'choiceModal', { id: 42, orgId: 'team' }, 'orgId is not an integer id'],
  ] as const)(
    '%s, %s family: payLoad %j rejects with invalid_message (%s); nothing hangs',
    async ([flow, family, payLoad, problem], t) => {
      const page = await suite.host(t, 'esm')
      const frame = await openSession(page, flow, family)
      await frame.evaluate((payLoad) => window.fake.send('success', { payLoad }), payLoad)
      const { error } = await result(page)
      expect(error?.code).toBe('invalid_message')
      expect(error?.message).toContain(`unusable success message: ${problem}.`)
      expect(await page.evaluate(() => window.host.events('a'))).toEqual(['loaded'])
      expect(await page.evaluate(() => [window.host.frames(), window.host.dialogs()])).toEqual([0, 0])
    },
  )
})
