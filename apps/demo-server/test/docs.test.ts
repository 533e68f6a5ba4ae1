import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { startTestDemo } from './helpers.ts'

// /docs serves what `pnpm run docs` builds (here a stand-in tree), and builds it on the first visit
// when it is not there (the real build, into an empty directory).

const docs = mkdtempSync(join(tmpdir(), 'demo-docs-'))
mkdirSync(join(docs, 'api'))
writeFileSync(join(docs, 'index.html'), '<h1>docs home</h1>')
writeFileSync(join(docs, 'api', 'index.html'), '<h1>api reference</h1>')
afterAll(() => rmSync(docs, { recursive: true, force: true }))

describe('/docs', () => {
  test('serves the built docs: the index, sub-folders, a redirect from /docs, 404 outside', async () => {
    const demo = await startTestDemo({ DEMO_DOCS_DIR: docs })
    try {
      expect((await demo.app.request('/docs')).headers.get('location')).toBe('/docs/')
      expect(await (await demo.app.request('/docs/')).text()).toBe('<h1>docs home</h1>')
      expect(await (await demo.app.request('/docs/api/')).text()).toBe('<h1>api reference</h1>')
      expect((await demo.app.request('/docs/missing.html')).status).toBe(404)
      expect((await demo.app.request('/docs/..%2F..%2Fpackage.json')).status).toBe(404)
    } finally {
      await demo.stop()
    }
  })
})

describe('/docs without a built site', () => {
  test('the first visit builds it (pnpm run docs), a page says so and reloads itself, then the site is served: no restart', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'demo-docs-empty-'))
    const demo = await startTestDemo({ DEMO_DOCS_DIR: empty })
    try {
      const first = await demo.app.request('/docs/')
      expect(first.status).toBe(503)
      expect(first.headers.get('retry-after')).toBe('3')
      const building = await first.text()
      expect(building).toContain('<meta http-equiv="refresh" content="3">')
      expect(building).toContain('Building the docs…')
      const started = Date.now()
      let page = first
      while (page.status === 503 && Date.now() - started < 240_000) {
        await new Promise((resolve) => setTimeout(resolve, 2_000))
        page = await demo.app.request('/docs/')
      }
      const seconds = Math.round((Date.now() - started) / 1000)
      expect(page.status, `after ${seconds} s: ${await page.clone().text()}`).toBe(200)
      expect(await page.text()).toContain('href="/" id="back"')
      expect((await demo.app.request('/docs/api/index.html')).status).toBe(200)
      expect((await demo.app.request('/docs/spec/index.html')).status).toBe(200)
      console.info(`/docs built on the first visit in ${seconds} s`)
    } finally {
      await demo.stop()
      rmSync(empty, { recursive: true, force: true })
    }
  }, 300_000)
})
