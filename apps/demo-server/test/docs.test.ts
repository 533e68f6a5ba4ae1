import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { startTestDemo } from './helpers.ts'

// /docs serves what `pnpm docs` builds (here a stand-in tree), and says how to build it when absent.

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
