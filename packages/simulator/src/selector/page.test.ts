import { Script } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { createSimulatorApp, type SimulatorApp } from '../host/app.ts'
import { defaultSeed } from '../model/seed.ts'

const ORIGIN = 'http://sim.test'

async function get(app: SimulatorApp, path: string) {
  const response = await app.fetch(new Request(`${ORIGIN}${path}`))
  return { response, text: await response.text() }
}

const page = (app: SimulatorApp, flow: 1 | 2) =>
  get(app, `/outer/outerChoice?type=content${flow === 2 ? '&file=empty' : ''}`)

/** The tree items of a rendered page, as `{ org, folder, disabled }`, in document order. */
function treeItems(html: string) {
  return [...html.matchAll(/<li role="treeitem"[^>]*>/g)].map(([tag]) => ({
    org: /data-org="(\d+)"/.exec(tag)?.[1],
    folder: /data-folder="(\d+)"/.exec(tag)?.[1],
    disabled: tag.includes('aria-disabled="true"'),
  }))
}

describe('GET /outer/outerChoice', () => {
  it('flow 2 (file=empty): the folder tree of the signed-in caller under a strict CSP', async () => {
    const app = createSimulatorApp()
    const { response, text } = await page(app, 2)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).toContain("require-trusted-types-for 'script'")
    expect(csp).not.toContain('unsafe')
    // Nothing inline for that CSP to block: scripts come from src, no style attributes or handlers.
    expect(text).toMatch(/<script src="assets\/selector\.js" defer><\/script>/)
    expect(text.match(/<script/g)).toHaveLength(1)
    expect(text).not.toMatch(/\sstyle=|\son[a-z]+=/i)

    expect(text).toContain('data-flow="choose"')
    expect(text).toContain('data-families="choiceModal selector"')
    expect(text).toContain('Signed in as <strong>Ada Lovelace</strong>')
    expect(text).toContain('>Confirm</button>')
    expect(text).not.toContain('id="file-list"')

    const items = treeItems(text)
    // The personal space first, as orgId 1, with folder 0 (its root) and its folders, 19-digit ids intact.
    expect(items[0]).toEqual({ org: '1', folder: '0', disabled: false })
    expect(items).toContainEqual({ org: '1', folder: '1753946835000000004', disabled: false })
    // Then each of Ada's six teams; 1004 (expired) and 1006 (view only) are marked and disabled.
    const spaces = items.filter((i) => i.folder === '0')
    expect(spaces).toEqual([
      { org: '1', folder: '0', disabled: false },
      { org: '1001', folder: '0', disabled: false },
      { org: '1002', folder: '0', disabled: false },
      { org: '1003', folder: '0', disabled: false },
      { org: '1004', folder: '0', disabled: true },
      { org: '1005', folder: '0', disabled: false },
      { org: '1006', folder: '0', disabled: true },
    ])
    expect(items.filter((i) => i.org === '1006').every((i) => i.disabled)).toBe(true)
    expect(items.filter((i) => i.org === '1004').every((i) => i.disabled)).toBe(true)
    expect(items.filter((i) => i.org === '1001')).toHaveLength(6)
    expect(text).toContain('>View only</span>')
    expect(text).toContain('>Expired</span>')
    expect(text).toContain('You cannot upload to Stark Library: your role in this space is view only.')
  })

  it('holds no secret: no token, API key or credential of the seed appears in the page', async () => {
    const app = createSimulatorApp()
    const { text } = await page(app, 1)
    const data = app.control.snapshot()
    const secrets = [
      ...data.openTokens.map((t) => t.value),
      ...data.apiKeys.map((k) => k.key),
      ...data.teams.map((t) => t.apiKey),
    ]
    expect(secrets.length).toBeGreaterThan(6)
    for (const secret of secrets) expect(text).not.toContain(secret)
    expect(text).not.toMatch(/token|secret|apikey/i)
  })

  it('flow 1 (no file=empty): the upload variant, with a files section and an Upload button', async () => {
    const { response, text } = await page(createSimulatorApp(), 1)
    expect(response.status).toBe(200)
    expect(text).toContain('data-flow="upload"')
    expect(text).toContain('id="file-list"')
    expect(text).toContain('>Upload</button>')
    expect(text).toMatch(/data-max-bytes="\d+"/)
  })

  it('the selectorFamily quirk chooses the families the page posts: at start, at run time, over HTTP', async () => {
    const families = async (app: SimulatorApp) =>
      /data-families="([^"]*)"/.exec((await page(app, 2)).text)?.[1]
    expect(await families(createSimulatorApp())).toBe('choiceModal selector')
    expect(await families(createSimulatorApp({ quirks: { selectorFamily: 'choiceModal' } }))).toBe(
      'choiceModal',
    )

    const app = createSimulatorApp()
    app.control.quirks.selectorFamily = 'selector'
    expect(await families(app)).toBe('selector')
    const put = await app.fetch(
      new Request(`${ORIGIN}/_sim/quirks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ selectorFamily: 'both' }),
      }),
    )
    expect(put.status).toBe(200)
    expect(await families(app)).toBe('choiceModal selector')
    // A value the page does not know means both families, never none.
    app.control.quirks.selectorFamily = 'nonsense' as 'both'
    expect(await families(app)).toBe('choiceModal selector')
  })

  it('anything but type=content is a clear 400', async () => {
    const app = createSimulatorApp()
    for (const query of ['', '?type=image', '?file=empty']) {
      const { response, text } = await get(app, `/outer/outerChoice${query}`)
      expect(response.status).toBe(400)
      expect(text).toContain('type=content')
    }
  })

  it('escapes folder and user names', async () => {
    const seed = defaultSeed()
    const ada = seed.users[0]!
    ada.name = 'Ada <b>"Lovelace"</b>'
    ada.folders = [{ id: '77', name: '<img src=x onerror=alert(1)>' }]
    const { text } = await page(createSimulatorApp({ seed }), 2)
    expect(text).not.toContain('<img')
    expect(text).not.toContain('<b>')
    expect(text).toContain('&#60;img src=x onerror=alert(1)&#62;')
    expect(text).toContain('data-path="My space (Ada &#60;b&#62;&#34;Lovelace&#34;&#60;/b&#62;) / &#60;img')
  })

  it('serves its script and stylesheet from its own origin; the script is valid JavaScript', async () => {
    const app = createSimulatorApp()
    const js = await get(app, '/outer/assets/selector.js')
    expect(js.response.status).toBe(200)
    expect(js.response.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(js.response.headers.get('x-content-type-options')).toBe('nosniff')
    // One bundled classic script (no import, no export): it must compile on its own.
    expect(() => new Script(js.text)).not.toThrow()
    expect(js.text).not.toMatch(/\binnerHTML\b|\beval\(|new Function/)
    const css = await get(app, '/outer/assets/selector.css')
    expect(css.response.status).toBe(200)
    expect(css.response.headers.get('content-type')).toMatch(/^text\/css/)
    expect(css.text).toContain('[data-theme="dark"]')
  })
})
