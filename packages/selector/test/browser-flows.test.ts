import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { browserSuite } from './browser.ts'
import { selectorFrame } from './harness.ts'

// Both flows, both message families, every way a session ends, against the built SDK in real
// Chromium; the host page and the selector page are on two different origins (and sites).
const suite = browserSuite()
const app = (query: Record<string, string> = {}, path = '/') =>
  `${suite.origins.app}${path}?${new URLSearchParams(query)}`

const HELLO = [...Buffer.from('hello, selector')]
const ALL_BYTES = Array.from({ length: 256 }, (_, i) => i)

const result = (page: Page, name = 'a') => page.evaluate((n) => window.host.result(n), name)
const frames = (page: Page) => page.evaluate(() => [window.host.frames(), window.host.dialogs()])

describe.skipIf(!suite.available).concurrent('in Chromium', () => {
  // Everything against the ESM build; the IIFE (the same code, minified, for <script> tags) gets
  // both flows in both families, the modal, and destroy().
  describe.each(['esm', 'iife'] as const)('%s build', (build) => {
    describe.each(['choiceModal', 'selector'] as const)('%s message family', (family) => {
      test('flow 2: pickFolder sends init with the theme once, after loaded, and resolves with string ids', async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => window.host.start('a', 'pickFolder', { appUrl, theme: 'dark' }),
          app({ family }),
        )
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        expect(await frame.evaluate(() => window.fake.received)).toEqual([
          { origin: suite.origins.host, type: 'service-choiceModal-init', data: { theme: 'dark' } },
        ])
        expect(new URL(frame.url()).searchParams.get('type')).toBe('content')
        expect(new URL(frame.url()).searchParams.get('file')).toBe('empty')
        await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 42, orgId: 7 } }))
        expect(await result(page)).toEqual({ value: { folderId: '42', orgId: '7' } })
        expect(await frames(page)).toEqual([0, 0])
      })

      test('flow 1: uploadWithSelector hands File objects to the page intact, with isUrl false and the link', async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) =>
            window.host.start('a', 'uploadWithSelector', {
              appUrl,
              makeFiles: true,
              link: 'https://example.com/post/1',
            }),
          app({ family }),
        )
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        expect(new URL(frame.url()).searchParams.get('file')).toBeNull()
        expect(await frame.evaluate(() => window.fake.received)).toEqual([
          {
            origin: suite.origins.host,
            type: 'open',
            data: {
              files: [
                {
                  isFile: true,
                  name: 'hello.txt',
                  type: 'text/plain',
                  size: 15,
                  lastModified: 1700000000000,
                  bytes: HELLO,
                },
                {
                  isFile: true,
                  name: 'all-bytes.bin',
                  type: 'application/octet-stream',
                  size: 256,
                  lastModified: 1700000000001,
                  bytes: ALL_BYTES,
                },
              ],
              options: { isUrl: false, link: 'https://example.com/post/1' },
            },
          },
        ])
        await frame.evaluate(() =>
          window.fake.send('success', { payLoad: { id: '1673603133161799680', orgId: '1' } }),
        )
        expect(await result(page)).toEqual({ value: { folderId: '1673603133161799680', orgId: '1' } })
        expect(await frames(page)).toEqual([0, 0])
      })

      test('flow 1: URL strings go over as strings with isUrl true', async (t) => {
        const page = await suite.host(t, build)
        const files = ['https://cdn.example.com/a.png', 'https://cdn.example.com/b%20c.jpg?x=1']
        await page.evaluate(
          ([appUrl, files]) =>
            window.host.start('a', 'uploadWithSelector', {
              appUrl,
              files,
              link: 'https://example.com/gallery',
            }),
          [app({ family }), files] as const,
        )
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        expect((await frame.evaluate(() => window.fake.received))[0]?.data).toEqual({
          files,
          options: { isUrl: true, link: 'https://example.com/gallery' },
        })
        await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 9, orgId: 3 } }))
        expect(await result(page)).toEqual({ value: { folderId: '9', orgId: '3' } })
      })

      test('every lifecycle message reaches on() handlers as one set of events', async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => {
            window.host.create('a', { appUrl, makeFiles: true })
            void window.host.open('a')
          },
          app({ family, loaded: 'manual' }),
        )
        const frame = await selectorFrame(page)
        await frame.evaluate(() => {
          if (new URLSearchParams(location.search).get('family') === 'selector') window.fake.send('init')
          window.fake.send('loaded')
        })
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await frame.evaluate(() => window.fake.send('success', { payLoad: { id: '0', orgId: 12 } }))
        expect(await result(page)).toEqual({ value: { folderId: '0', orgId: '12' } })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual([
          ...(family === 'selector' ? ['init'] : []),
          'loaded',
          { event: 'success', detail: { folderId: '0', orgId: '12' } },
        ])
      })

      test('cancel resolves null, distinct from errors', async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate((appUrl) => {
          window.host.create('a', { appUrl })
          void window.host.open('a')
        }, app({ family }))
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await frame.evaluate(() => window.fake.send('cancel'))
        expect(await result(page)).toEqual({ value: null })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual(['loaded', 'cancel'])
        expect(await frames(page)).toEqual([0, 0])
      })

      test('an error message rejects with a typed SelectorError carrying the page text', async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate((appUrl) => {
          window.host.create('a', { appUrl, files: ['https://cdn.example.com/a.png'] })
          void window.host.open('a')
        }, app({ family }))
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await frame.evaluate(() => window.fake.send('error', { message: 'quota exceeded' }))
        const { error } = await result(page)
        expect(error).toMatchObject({
          name: 'SelectorError',
          code: 'error',
          isRetryable: false,
          marker: true,
          isInstance: true,
        })
        expect(error?.message).toContain('quota exceeded')
        expect(error?.json).toEqual({
          name: 'SelectorError',
          code: 'error',
          message: error?.message,
          isRetryable: false,
          issues: [],
        })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual([
          'loaded',
          { event: 'error', detail: { message: 'quota exceeded' } },
        ])
        expect(await frames(page)).toEqual([0, 0])
      })

      test('the page unmounting without an answer resolves null', async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate((appUrl) => {
          window.host.create('a', { appUrl })
          void window.host.open('a')
        }, app({ family }))
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await frame.evaluate(() => window.fake.send('unMounted'))
        expect(await result(page)).toEqual({ value: null })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual(['loaded', 'unMounted'])
      })
    })

    test.runIf(build === 'esm')(
      'a page that never loads rejects with code timeout and leaves nothing behind',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => window.host.start('a', 'pickFolder', { appUrl, timeoutMs: 300 }),
          app({ loaded: 'manual' }),
        )
        expect((await result(page)).error).toMatchObject({
          name: 'SelectorError',
          code: 'timeout',
          isRetryable: true,
        })
        expect(await frames(page)).toEqual([0, 0])
      },
    )

    test.runIf(build === 'esm')(
      'aborting the signal rejects with code aborted, keeps the reason as cause, and removes the page',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => window.host.start('a', 'pickFolder', { appUrl, abortable: true }),
          app(),
        )
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await page.evaluate(() => window.host.abort('a'))
        expect((await result(page)).error).toMatchObject({
          code: 'aborted',
          isRetryable: false,
          cause: 'Error: user left',
        })
        expect(await frames(page)).toEqual([0, 0])
      },
    )

    test.runIf(build === 'esm')(
      'a page that cannot be shown rejects with code unsupported at once; the next open() tries again',
      async (t) => {
        const page = await suite.host(t, build)
        const outcome = await page.evaluate(async (appUrl) => {
          // The document as the container: appending a second root element to it throws.
          const container = document as unknown as HTMLElement
          const selector = window.Selector.createSelector({ appUrl, container })
          const first = selector.open()
          const second = selector.open()
          const code = (p: Promise<unknown>) =>
            p.then(
              () => 'settled',
              (e) => e.code,
            )
          return { same: first === second, codes: [await code(first), await code(second)] }
        }, app())
        // Nothing was left pending: the second open() is a new attempt, not the failed promise.
        expect(outcome).toEqual({ same: false, codes: ['unsupported', 'unsupported'] })
        expect(await frames(page)).toEqual([0, 0])
      },
    )

    test.runIf(build === 'esm')(
      'an already aborted signal rejects at once, without creating a frame',
      async (t) => {
        const page = await suite.host(t, build)
        const created = await page.evaluate((appUrl) => {
          window.host.start('a', 'pickFolder', { appUrl, preAborted: true })
          return window.host.frames()
        }, app())
        expect(created).toBe(0)
        // The signal's reason is the cause, not the rejection itself (see the README's Aborting).
        expect((await result(page)).error).toMatchObject({ code: 'aborted', cause: 'Error: stop' })
      },
    )

    test('modal: a native dialog in the top layer, above any z-index', async (t) => {
      const page = await suite.host(t, build)
      await page.evaluate(() => {
        const overlay = document.createElement('div')
        overlay.id = 'overlay'
        Object.assign(overlay.style, {
          position: 'fixed',
          inset: '0',
          zIndex: '2147483647',
          background: 'red',
        })
        document.body.append(overlay)
      })
      await page.evaluate((appUrl) => window.host.start('a', 'pickFolder', { appUrl }), app())
      await selectorFrame(page)
      expect(
        await page.evaluate(() => {
          const dialog = document.querySelector('dialog')
          const hit = document.elementFromPoint(innerWidth / 2, innerHeight / 2)
          return {
            modal: dialog?.matches(':modal'),
            hit: hit?.tagName,
            label: dialog?.getAttribute('aria-label'),
            inDialog: dialog?.contains(document.querySelector('iframe')),
          }
        }),
      ).toEqual({ modal: true, hit: 'IFRAME', label: 'Folder selector', inDialog: true })
      await page.evaluate(() => window.host.selector)
    })

    test('modal: Escape closes it as a cancel and focus returns to where it was', async (t) => {
      const page = await suite.host(t, build)
      await page.focus('#opener')
      await page.evaluate((appUrl) => window.host.start('a', 'pickFolder', { appUrl }), app())
      const frame = await selectorFrame(page)
      await frame.waitForFunction(() => window.fake.received.length > 0)
      await page.keyboard.press('Escape')
      expect(await result(page)).toEqual({ value: null })
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('opener')
      expect(await frames(page)).toEqual([0, 0])
    })

    test.for([
      { width: 390, height: 700, expected: { width: 358, height: 640 } },
      { width: 1600, height: 1000, expected: { width: 960, height: 640 } },
      { width: 800, height: 500, expected: { width: 768, height: 468 } },
    ])('modal: sized to the viewport ($width x $height)', async ({ width, height, expected }, t) => {
      if (build !== 'esm') return t.skip()
      const page = await suite.host(t, build, { width, height })
      await page.evaluate((appUrl) => window.host.start('a', 'pickFolder', { appUrl }), app())
      await selectorFrame(page)
      const box = await (await page.$('iframe'))?.boundingBox()
      expect(box).toMatchObject(expected)
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(width)
      expect(box!.y + box!.height).toBeLessThanOrEqual(height)
    })

    test.runIf(build === 'esm')('inline: in the given container, filling it, with no dialog', async (t) => {
      const page = await suite.host(t, build)
      await page.evaluate(() =>
        Object.assign(document.querySelector<HTMLElement>('#c1')!.style, { width: '500px', height: '300px' }),
      )
      await page.evaluate(
        (appUrl) => window.host.start('a', 'pickFolder', { appUrl, container: '#c1' }),
        app(),
      )
      const frame = await selectorFrame(page, '#c1 iframe')
      expect(await page.evaluate(() => window.host.dialogs())).toBe(0)
      expect(await (await page.$('#c1 iframe'))?.boundingBox()).toMatchObject({ width: 500, height: 300 })
      await frame.waitForFunction(() => window.fake.received.length > 0)
      await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 5, orgId: 1 } }))
      expect(await result(page)).toEqual({ value: { folderId: '5', orgId: '1' } })
      expect(await page.evaluate(() => document.querySelector('#c1')!.children.length)).toBe(0)
    })

    test.runIf(build === 'esm')(
      'the iframe: sandbox, allow, referrer policy and title chosen deliberately; only the origin is sent as referrer',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => window.host.start('a', 'pickFolder', { appUrl }),
          app({ secret: 'x' }),
        )
        const frame = await selectorFrame(page)
        expect(
          await page.evaluate(() => {
            const f = document.querySelector('iframe')!
            return ['sandbox', 'allow', 'referrerpolicy', 'title'].map((a) => f.getAttribute(a))
          }),
        ).toEqual([
          'allow-scripts allow-same-origin allow-forms allow-storage-access-by-user-activation',
          '',
          'strict-origin',
          'Folder selector',
        ])
        expect(await frame.evaluate(() => window.fake.referrer)).toBe(`${suite.origins.host}/`)
      },
    )

    test.runIf(build === 'esm')(
      'appUrl keeps its path and query; the page path and flow parameters are added',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => window.host.start('a', 'pickFolder', { appUrl }),
          app({ lang: 'en' }, '/tenant/'),
        )
        const frame = await selectorFrame(page)
        expect(frame.url()).toBe(
          `${suite.origins.app}/tenant/outer/outerChoice?lang=en&type=content&file=empty`,
        )
      },
    )

    test.runIf(build === 'esm')(
      'a second open() while one is pending returns the same promise and the same page',
      async (t) => {
        const page = await suite.host(t, build)
        expect(
          await page.evaluate((appUrl) => {
            const selector = window.host.create('a', { appUrl })
            const first = window.host.open('a')
            return first === selector.open() && first === selector.open()
          }, app()),
        ).toBe(true)
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await frame.evaluate(() => window.fake.send('loaded'))
        await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 3, orgId: 4 } }))
        expect(await result(page)).toEqual({ value: { folderId: '3', orgId: '4' } })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual([
          'loaded',
          'loaded',
          { event: 'success', detail: { folderId: '3', orgId: '4' } },
        ])
      },
    )

    test.runIf(build === 'esm')(
      'close() resolves null; the same selector opens again with a fresh page',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate((appUrl) => {
          window.host.create('a', { appUrl, theme: 'light' })
          void window.host.open('a')
        }, app())
        let frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await page.evaluate(() => window.host.selector('a').close())
        expect(await result(page)).toEqual({ value: null })
        expect(await frames(page)).toEqual([0, 0])
        await page.evaluate(() => void window.host.open('a'))
        frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        expect((await frame.evaluate(() => window.fake.received)).map((r) => r.type)).toEqual([
          'service-choiceModal-init',
        ])
        await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 8, orgId: 1 } }))
        expect(await result(page)).toEqual({ value: { folderId: '8', orgId: '1' } })
      },
    )

    test('destroy() removes the iframe, the dialog, every listener and timer, and every handler', async (t) => {
      const page = await suite.host(t, build)
      const before = await page.evaluate(() => [window.leaks.listeners(), window.leaks.timers()] as const)
      await page.evaluate((appUrl) => {
        window.host.create('a', { appUrl, abortable: true })
        void window.host.open('a')
      }, app())
      const frame = await selectorFrame(page)
      await frame.waitForFunction(() => window.fake.received.length > 0)
      const during = await page.evaluate(() => window.leaks.listeners())
      expect(during.length).toBeGreaterThan(before[0].length)
      await page.evaluate(() => window.host.selector('a').destroy())
      expect((await result(page)).error).toMatchObject({ code: 'destroyed' })
      expect(await frames(page)).toEqual([0, 0])
      expect(await page.evaluate(() => [window.leaks.listeners(), window.leaks.timers()] as const)).toEqual(
        before,
      )
      const again = await page.evaluate(() =>
        window.host
          .selector('a')
          .open()
          .then(
            () => 'resolved',
            (e: { code: string }) => e.code,
          ),
      )
      expect(again).toBe('destroyed')
      expect(await frames(page)).toEqual([0, 0])
    })

    test.runIf(build === 'esm')('a settled session leaves no listener or timer either', async (t) => {
      const page = await suite.host(t, build)
      const before = await page.evaluate(() => [window.leaks.listeners(), window.leaks.timers()] as const)
      await page.evaluate(
        (appUrl) => window.host.start('a', 'pickFolder', { appUrl, abortable: true }),
        app(),
      )
      const frame = await selectorFrame(page)
      await frame.waitForFunction(() => window.fake.received.length > 0)
      await frame.evaluate(() => window.fake.send('cancel'))
      expect(await result(page)).toEqual({ value: null })
      expect(await page.evaluate(() => [window.leaks.listeners(), window.leaks.timers()] as const)).toEqual(
        before,
      )
    })

    test.runIf(build === 'esm')(
      'on() returns an unsubscriber; a throwing handler is reported, not fatal',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate((appUrl) => {
          const selector = window.host.create('a', { appUrl })
          const off = selector.on('loaded', () => window.host.events('a').push('unsubscribed handler ran'))
          off()
          selector.on('success', () => {
            throw new Error('boom in a handler')
          })
          void window.host.open('a')
        }, app())
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        await frame.evaluate(() => window.fake.send('success', { payLoad: { id: 6, orgId: 1 } }))
        expect(await result(page)).toEqual({ value: { folderId: '6', orgId: '1' } })
        expect(await page.evaluate(() => window.host.events('a'))).toEqual([
          'loaded',
          { event: 'success', detail: { folderId: '6', orgId: '1' } },
        ])
        await t.expect.poll(() => suite.errors(page)).toEqual([expect.stringContaining('boom in a handler')])
        suite.errors(page).length = 0
      },
    )

    test.runIf(build === 'esm')(
      'the prefix is an option: acme-* messages are spoken, service-* ones ignored',
      async (t) => {
        const page = await suite.host(t, build)
        await page.evaluate(
          (appUrl) => window.host.start('a', 'pickFolder', { appUrl, prefix: 'acme' }),
          app({ prefix: 'acme' }),
        )
        const frame = await selectorFrame(page)
        await frame.waitForFunction(() => window.fake.received.length > 0)
        expect((await frame.evaluate(() => window.fake.received))[0]?.type).toBe('acme-choiceModal-init')
        await frame.evaluate(() => {
          window.fake.post({ type: 'service-choiceModal-success', payLoad: { id: 666, orgId: 666 } })
          window.fake.send('success', { payLoad: { id: 1, orgId: 2 } })
        })
        expect(await result(page)).toEqual({ value: { folderId: '1', orgId: '2' } })
      },
    )
  })
})
