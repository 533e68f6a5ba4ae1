import type { Frame, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { browserSuite } from './browser.ts'
import { selectorFrame } from './harness.ts'

// Who may talk to the selector, and when: spoofs from other origins and other windows, two
// instances on one page, and a page that speaks too early, twice, late or in malformed messages.
const suite = browserSuite()
const app = (query: Record<string, string> = {}) => `${suite.origins.app}/?${new URLSearchParams(query)}`
const result = (page: Page, name = 'a') => page.evaluate((n) => window.host.result(n), name)
const received = (frame: Frame) => frame.evaluate(() => window.fake.received.map((r) => r.type))

const SPOOF = { type: 'service-choiceModal-success', payLoad: { id: 666, orgId: 666 } }

/** An extra iframe on the host page, at `url`; resolves with its Playwright frame. */
async function extraFrame(page: Page, id: string, url: string): Promise<Frame> {
  await page.evaluate(
    ([id, url]) => {
      const f = document.createElement('iframe')
      f.id = id
      f.src = url
      document.body.append(f)
    },
    [id, url] as const,
  )
  const frame = await (await page.waitForSelector(`#${id}`, { state: 'attached' })).contentFrame()
  await frame!.waitForLoadState()
  return frame!
}

/**
 * Posts `messages` to the host window from `frame`, then a sentinel, and waits until the host saw
 * the sentinel: messages from one window arrive in order, so by then the SDK has handled them all.
 */
async function postFrom(page: Page, frame: Frame, messages: unknown[]) {
  const sentinel = Math.random()
  await frame.evaluate(
    ([messages, sentinel]) => {
      for (const m of messages as unknown[]) parent.postMessage(m, '*')
      parent.postMessage({ sentinel }, '*')
    },
    [messages, sentinel] as const,
  )
  await page.waitForFunction((s) => window.host.seen().some((m) => m.sentinel === s), sentinel)
}

async function openPick(page: Page, query: Record<string, string> = {}) {
  await page.evaluate((appUrl) => {
    window.host.create('a', { appUrl })
    void window.host.open('a')
  }, app(query))
  return selectorFrame(page)
}

describe.skipIf(!suite.available).concurrent('in Chromium (ESM build)', () => {
  test('messages from another origin are ignored, even with a perfect shape', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page, { loaded: 'manual' })
    const evil = await extraFrame(page, 'evil', `${suite.origins.evil}/blank.html`)
    await postFrom(page, evil, [
      { type: 'service-choiceModal-loaded' },
      SPOOF,
      { type: 'service-choiceModal-cancel' },
    ])
    // The host's own window is another origin too.
    await page.evaluate((spoof) => window.postMessage(spoof, '*'), SPOOF)
    expect(await received(frame)).toEqual([])
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([])
    await frame.evaluate(() => window.fake.send('loaded'))
    await frame.waitForFunction(() => window.fake.received.length > 0)
    await postFrom(page, evil, [SPOOF])
    await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 42, orgId: 7 } }))
    expect(await result(page)).toEqual({ value: { folderId: '42', orgId: '7' } })
  })

  test('messages from the right origin but another window are ignored', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page)
    await frame.waitForFunction(() => window.fake.received.length > 0)
    const twin = await extraFrame(page, 'twin', `${suite.origins.app}/blank.html`)
    await postFrom(page, twin, [
      SPOOF,
      { type: 'service-choiceModal-cancel' },
      { type: 'service-choiceModal-error' },
    ])
    expect(await page.evaluate(() => window.host.events('a'))).toEqual(['loaded'])
    await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 42, orgId: 7 } }))
    expect(await result(page)).toEqual({ value: { folderId: '42', orgId: '7' } })
  })

  test('our own frame, navigated to another origin, is no longer trusted', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page, { loaded: 'manual' })
    // The evil origin serves the same fake page: it speaks the protocol perfectly.
    await Promise.all([
      frame.waitForNavigation(),
      frame.evaluate((url) => location.assign(url), `${suite.origins.evil}/outer/outerChoice?loaded=manual`),
    ])
    await frame.waitForFunction(() => 'fake' in window)
    await postFrom(page, frame, [{ type: 'service-choiceModal-loaded' }, SPOOF])
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([])
    // Nothing was posted to it either: init goes only to the app's exact origin, after its loaded.
    expect(await received(frame)).toEqual([])
    await page.evaluate(() => window.host.selector('a').close())
    expect(await result(page)).toEqual({ value: null })
  })

  test('two instances on one page never see each other’s messages or results', async (t) => {
    const page = await suite.host(t, 'esm')
    await page.evaluate((appUrl) => {
      window.host.create('a', { appUrl, container: '#c1' })
      window.host.create('b', { appUrl, container: '#c2', theme: 'dark' })
      void window.host.open('a')
      void window.host.open('b')
    }, app())
    const a = await selectorFrame(page, '#c1 iframe')
    const b = await selectorFrame(page, '#c2 iframe')
    await a.waitForFunction(() => window.fake.received.length > 0)
    await b.waitForFunction(() => window.fake.received.length > 0)
    expect(await a.evaluate(() => window.fake.received.map((r) => r.data))).toEqual([{ theme: 'light' }])
    expect(await b.evaluate(() => window.fake.received.map((r) => r.data))).toEqual([{ theme: 'dark' }])
    await a.evaluate(() => window.fake.send('success', { payLoad: { id: 111, orgId: 1 } }))
    expect(await result(page, 'a')).toEqual({ value: { folderId: '111', orgId: '1' } })
    expect(await page.evaluate(() => window.host.events('b'))).toEqual(['loaded'])
    await b.evaluate(() => window.fake.send('success', { payLoad: { id: 222, orgId: 2 } }))
    expect(await result(page, 'b')).toEqual({ value: { folderId: '222', orgId: '2' } })
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([
      'loaded',
      { event: 'success', detail: { folderId: '111', orgId: '1' } },
    ])
  })

  test('two pickFolder calls at once each resolve with their own page’s answer', async (t) => {
    const page = await suite.host(t, 'esm')
    await page.evaluate(
      ([one, two]) => {
        window.host.start('a', 'pickFolder', { appUrl: one, container: '#c1' })
        window.host.start('b', 'pickFolder', { appUrl: two, container: '#c2' })
      },
      [app({ reply: 'success', id: '1', org: '10' }), app({ reply: 'success', id: '2', org: '20' })] as const,
    )
    expect(await result(page, 'a')).toEqual({ value: { folderId: '1', orgId: '10' } })
    expect(await result(page, 'b')).toEqual({ value: { folderId: '2', orgId: '20' } })
  })

  test('a success before loaded is ignored; loaded twice still sends init once', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page, { loaded: 'manual' })
    await postFrom(page, frame, [
      { type: 'service-choiceModal-success', payLoad: { id: 1, orgId: 1 } },
      { type: 'service-selector-page-success', payLoad: { id: 1, orgId: 1 } },
    ])
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([])
    await postFrom(page, frame, [{ type: 'service-choiceModal-loaded' }, { type: 'service-selector-loaded' }])
    await frame.waitForFunction(() => window.fake.received.length > 0)
    expect(await received(frame)).toEqual(['service-choiceModal-init'])
    await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 2, orgId: 3 } }))
    expect(await result(page)).toEqual({ value: { folderId: '2', orgId: '3' } })
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([
      'loaded',
      'loaded',
      { event: 'success', detail: { folderId: '2', orgId: '3' } },
    ])
  })

  test('cancel before loaded is honoured (the user closed it early)', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page, { loaded: 'manual' })
    await frame.evaluate(() => window.fake.send('cancel'))
    expect(await result(page)).toEqual({ value: null })
  })

  test('an error before loaded rejects at once (the page could not start), not after the timeout', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page, { loaded: 'manual' })
    await frame.evaluate(() => window.fake.send('error', { message: 'not signed in' }))
    const { error } = await result(page)
    expect(error).toMatchObject({ code: 'error' })
    expect(error?.message).toContain('not signed in')
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([
      { event: 'error', detail: { message: 'not signed in' } },
    ])
  })

  test('family 2 init before loaded does not trigger the send; open goes after loaded', async (t) => {
    const page = await suite.host(t, 'esm')
    await page.evaluate(
      (appUrl) => {
        window.host.create('a', { appUrl, files: ['https://cdn.example.com/a.png'] })
        void window.host.open('a')
      },
      app({ family: 'selector', loaded: 'manual' }),
    )
    const frame = await selectorFrame(page)
    await postFrom(page, frame, [{ type: 'service-selector-init' }])
    expect(await received(frame)).toEqual([])
    await frame.evaluate(() => window.fake.send('loaded'))
    await frame.waitForFunction(() => window.fake.received.length > 0)
    expect(await received(frame)).toEqual(['open'])
    await frame.evaluate(() => window.fake.send('cancel'))
    expect(await result(page)).toEqual({ value: null })
    expect(await page.evaluate(() => window.host.events('a'))).toEqual(['init', 'loaded', 'cancel'])
  })

  test('answers twice, or late: the first one wins and the rest are never seen', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page)
    await frame.waitForFunction(() => window.fake.received.length > 0)
    await frame.evaluate(() => {
      window.fake.send('success', { payLoad: { id: 1, orgId: 1 } })
      window.fake.send('success', { payLoad: { id: 2, orgId: 2 } })
      window.fake.send('error', { message: 'late' })
      window.fake.send('cancel')
      window.fake.send('unMounted')
    })
    expect(await result(page)).toEqual({ value: { folderId: '1', orgId: '1' } })
    // Give the late messages time to arrive (the last is unMounted). When the frame is gone
    // first, unMounted never comes: wait a bounded time, not Playwright's default 30 s, which is
    // also the test's own timeout (under a full run's load the two raced).
    await page
      .waitForFunction(
        () => window.host.seen().filter((m) => m.type === 'service-choiceModal-unMounted').length > 0,
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => {})
    expect(await page.evaluate(() => window.host.events('a'))).toEqual([
      'loaded',
      { event: 'success', detail: { folderId: '1', orgId: '1' } },
    ])
  })

  test('messages that are not ours (no known type) are ignored; exact big ids survive as strings', async (t) => {
    const page = await suite.host(t, 'esm')
    const frame = await openPick(page)
    await frame.waitForFunction(() => window.fake.received.length > 0)
    const success = 'service-choiceModal-success'
    await postFrom(page, frame, [
      'service-choiceModal-success',
      JSON.stringify({ type: success, payLoad: { id: 1, orgId: 1 } }),
      null,
      42,
      [success],
      { type: 42 },
      { type: 'service-constructor' },
      { type: 'service-__proto__' },
      { type: 'service-toString' },
      { type: 'other-choiceModal-success', payLoad: { id: 1, orgId: 1 } },
      { type: 'service-choiceModal-init', data: { theme: 'dark' } },
      { type: 'open', data: {} },
    ])
    expect(await page.evaluate(() => window.host.events('a'))).toEqual(['loaded'])
    await frame.evaluate(() =>
      window.fake.send('success', {
        payLoad: { id: '1673603133161799680', orgId: '0001', name: 'extra is fine' },
      }),
    )
    expect(await result(page)).toEqual({ value: { folderId: '1673603133161799680', orgId: '1' } })
  })
})
