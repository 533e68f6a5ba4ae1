import { beforeAll, describe, expect, test } from 'vitest'

// Imported under Node and rendered with react-dom/server: nothing may use `window` or `document`
// (a server has neither). They are defined here as objects that record every property read, so
// code that only detects them (`typeof document`) passes, and code that uses them is caught.

const touched: string[] = []
for (const name of ['window', 'document']) {
  const spy = new Proxy(
    {},
    {
      get(_target, property) {
        touched.push(`${name}.${String(property)}`)
        return undefined
      },
    },
  )
  Object.defineProperty(globalThis, name, { configurable: true, value: spy })
}

type Package = typeof import('../src/index.ts')
let sdk: Package
let h: typeof import('react').createElement
let renderToString: typeof import('react-dom/server').renderToString
const client = { upload: () => ({}) as never }

beforeAll(async () => {
  // Imported only now, with the spies in place.
  ;({ renderToString } = await import('react-dom/server'))
  ;({ createElement: h } = await import('react'))
  sdk = await import('../src/index.ts')
})

function Page() {
  const picker = sdk.useFolderPicker({ appUrl: 'https://app.test' })
  const one = sdk.useUpload()
  const many = sdk.useUploads({ concurrency: 2 })
  return h(
    'main',
    null,
    h('p', null, `picker:${picker.status}`),
    h('p', null, `upload:${one.status}`),
    h('p', null, `uploads:${many.items.length}:${many.summary.counts.queued}`),
    h(sdk.FolderPicker, { appUrl: 'https://app.test', inline: true, className: 'box', onChoice() {} }),
    h(sdk.FolderPicker, { appUrl: 'https://app.test', onChoice() {} }),
  )
}

function Lonely() {
  sdk.useUploads()
  return null
}

function Bad() {
  sdk.useUploads({ client, concurrency: 0, throttleMs: -1 })
  return null
}

describe('server rendering', () => {
  test('importing the package and rendering every hook and component uses no window or document', () => {
    const html = renderToString(h(sdk.OpenClientProvider, { client }, h(Page)))
    expect(html).toBe(
      '<main><p>picker:idle</p><p>upload:idle</p><p>uploads:0:0</p><div class="box"></div></main>',
    )
    expect(touched).toEqual([])
  })

  test('an upload hook with no client fails with a ServiceValidationError naming the way out', () => {
    expect(() => renderToString(h(Lonely))).toThrow(
      expect.objectContaining({
        code: 'validation_error',
        issues: [
          expect.objectContaining({ path: 'client', message: expect.stringContaining('OpenClientProvider') }),
        ],
      }),
    )
  })

  test('bad hook options fail with a ServiceValidationError listing each', () => {
    expect(() => renderToString(h(Bad))).toThrow(
      expect.objectContaining({
        code: 'validation_error',
        issues: [
          expect.objectContaining({ path: 'throttleMs' }),
          expect.objectContaining({ path: 'concurrency' }),
        ],
      }),
    )
  })
})
