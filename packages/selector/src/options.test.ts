import { describe, expect, test } from 'vitest'
import { SANDBOX } from './iframe.ts'
import { resolveOptions } from './options.ts'

const invalid = expect.objectContaining({ name: 'SelectorError', code: 'validation_error' })

describe('resolveOptions: the page URL and its origin', () => {
  test.for([
    ['https://app.example.com', 'https://app.example.com/outer/outerChoice?type=content&file=empty'],
    ['https://app.example.com/', 'https://app.example.com/outer/outerChoice?type=content&file=empty'],
    [
      'https://app.example.com/tenant',
      'https://app.example.com/tenant/outer/outerChoice?type=content&file=empty',
    ],
    [
      'https://app.example.com/tenant/',
      'https://app.example.com/tenant/outer/outerChoice?type=content&file=empty',
    ],
    [
      'https://app.example.com/outer/outerChoice',
      'https://app.example.com/outer/outerChoice?type=content&file=empty',
    ],
    [
      'https://app.example.com/?lang=en#x',
      'https://app.example.com/outer/outerChoice?lang=en&type=content&file=empty',
    ],
    [
      'https://app.example.com/?type=other&file=x',
      'https://app.example.com/outer/outerChoice?type=content&file=empty',
    ],
    ['http://localhost:5173', 'http://localhost:5173/outer/outerChoice?type=content&file=empty'],
  ])('flow 2: %s -> %s', ([appUrl, src]) => {
    expect(resolveOptions({ appUrl: appUrl! }).src).toBe(src)
  })

  test('flow 1 has no file=empty; the origin is exact (scheme, host, port)', () => {
    const resolved = resolveOptions({
      appUrl: new URL('https://app.example.com:8443/x'),
      files: ['https://a.example/f.png'],
    })
    expect(resolved.src).toBe('https://app.example.com:8443/x/outer/outerChoice?type=content')
    expect(resolved.origin).toBe('https://app.example.com:8443')
  })

  test.for([
    '/relative',
    'app.example.com',
    'javascript:alert(1)',
    'data:text/html,x',
    'ftp://a.example',
    'file:///etc',
    '',
  ])('refuses appUrl %j', (appUrl) => {
    expect(() => resolveOptions({ appUrl })).toThrow(invalid)
  })
})

describe('resolveOptions: defaults', () => {
  test('flow 2', () => {
    expect(resolveOptions({ appUrl: 'https://app.example.com' })).toEqual({
      origin: 'https://app.example.com',
      src: 'https://app.example.com/outer/outerChoice?type=content&file=empty',
      upload: false,
      message: { type: 'service-choiceModal-init', data: { theme: 'light' } },
      prefix: 'service',
      timeoutMs: 30_000,
      container: undefined,
      signal: undefined,
      title: 'Folder selector',
      sandbox: SANDBOX,
      allow: '',
    })
  })

  test('flow 1 with URLs: isUrl is inferred, link defaults to empty', () => {
    expect(
      resolveOptions({ appUrl: 'https://app.example.com', files: ['https://a.example/f.png'] }).upload,
    ).toBe(true)
    expect(
      resolveOptions({ appUrl: 'https://app.example.com', files: ['https://a.example/f.png'] }).message,
    ).toEqual({
      type: 'open',
      data: { files: ['https://a.example/f.png'], options: { isUrl: true, link: '' } },
    })
  })

  test('flow 1 with File objects: isUrl false; the files are passed as given', () => {
    const file = new File(['x'], 'x.txt')
    const { message } = resolveOptions({
      appUrl: 'https://app.example.com',
      files: [file],
      link: 'https://l',
    })
    expect(message).toEqual({
      type: 'open',
      data: { files: [file], options: { isUrl: false, link: 'https://l' } },
    })
    expect((message as { data: { files: File[] } }).data.files[0]).toBe(file)
  })

  test('overrides', () => {
    const resolved = resolveOptions({
      appUrl: 'https://app.example.com',
      theme: 'dark',
      prefix: 'acme',
      timeoutMs: 5,
      title: 'Pick',
      sandbox: `${SANDBOX} allow-popups`,
      allow: 'clipboard-write',
    })
    expect(resolved).toMatchObject({
      message: { type: 'acme-choiceModal-init', data: { theme: 'dark' } },
      prefix: 'acme',
      timeoutMs: 5,
      title: 'Pick',
      sandbox: `${SANDBOX} allow-popups`,
      allow: 'clipboard-write',
    })
  })
})

describe('resolveOptions: bad input fails before anything is shown', () => {
  const appUrl = 'https://app.example.com'
  const file = new File(['x'], 'x.txt')
  test.for([
    ['theme', { appUrl, theme: 'blue' }],
    ['timeoutMs 0', { appUrl, timeoutMs: 0 }],
    ['timeoutMs negative', { appUrl, timeoutMs: -1 }],
    ['timeoutMs NaN', { appUrl, timeoutMs: Number.NaN }],
    ['prefix empty', { appUrl, prefix: '' }],
    ['files empty', { appUrl, files: [] }],
    ['files mixed', { appUrl, files: [file, 'https://a.example/f.png'] }],
    ['isUrl true with File objects', { appUrl, files: [file], isUrl: true }],
    ['isUrl false with URLs', { appUrl, files: ['https://a.example/f.png'], isUrl: false }],
    ['a relative URL', { appUrl, files: ['/f.png'] }],
    ['a javascript: URL', { appUrl, files: ['javascript:alert(1)'] }],
    ['a Blob is not a File', { appUrl, files: [new Blob(['x'])] }],
    ['link not a string', { appUrl, files: [file], link: 42 }],
  ] as const)('%s', ([, options]) => {
    expect(() => resolveOptions(options as never)).toThrow(invalid)
  })

  test('messages say what is wrong', () => {
    expect(() => resolveOptions({ appUrl: 'nope' })).toThrow(
      /appUrl must be an absolute http\(s\) URL, got nope/,
    )
    expect(() => resolveOptions({ appUrl, files: [file], isUrl: true })).toThrow(/isUrl/)
    expect(() => resolveOptions({ appUrl, files: [file, 'https://a.example/f.png'] as never })).toThrow(
      expect.objectContaining({
        issues: [{ path: 'files', message: expect.stringContaining('non-File') }],
      }),
    )
    expect(() => resolveOptions({ appUrl, theme: 'blue' as never })).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: 'theme' })] }),
    )
  })
})
