import { describe, expect, test } from 'vitest'
import { initMessage, openMessage, type PageMessage, parsePageMessage, toId } from './messages.ts'

describe('parsePageMessage: both families map onto one set of events', () => {
  test.for([
    ['choiceModal-loaded', 'loaded'],
    ['choiceModal-unMounted', 'unMounted'],
    ['choiceModal-cancel', 'cancel'],
    ['choiceModal-error', 'error'],
    ['selector-loaded', 'loaded'],
    ['selector-init', 'init'],
    ['selector-page-unMounted', 'unMounted'],
    ['selector-page-cancel', 'cancel'],
    ['selector-page-error', 'error'],
  ] as const)('service-%s -> %s', ([suffix, event]) => {
    expect(parsePageMessage({ type: `service-${suffix}` }, 'service')?.event).toBe(event)
    expect(parsePageMessage({ type: `acme-${suffix}` }, 'acme')?.event).toBe(event)
    expect(parsePageMessage({ type: `acme-${suffix}` }, 'service')).toBeUndefined()
  })

  test.for(['choiceModal-success', 'selector-page-success'])(
    'service-%s -> success with string ids',
    (suffix) => {
      expect(
        parsePageMessage({ type: `service-${suffix}`, payLoad: { id: 42, orgId: 7 } }, 'service'),
      ).toEqual({
        event: 'success',
        detail: { folderId: '42', orgId: '7' },
      })
    },
  )

  test('names outside the two families, or Object.prototype members, are not events', () => {
    for (const type of [
      'service-choiceModal-init',
      'service-selector-page-init',
      'service-constructor',
      'service-__proto__',
      'service-toString',
      'service-hasOwnProperty',
      'service-',
      'service',
      'open',
      'servicechoiceModal-loaded',
      'SERVICE-choiceModal-loaded',
      'service-choiceModal-Loaded',
    ]) {
      expect(parsePageMessage({ type }, 'service'), type).toBeUndefined()
    }
  })

  test('only plain objects with a string type are messages', () => {
    for (const data of [
      undefined,
      null,
      'service-choiceModal-loaded',
      JSON.stringify({ type: 'service-choiceModal-loaded' }),
      42,
      ['service-choiceModal-loaded'],
      { type: 42 },
      { type: null },
      new Map([['type', 'service-choiceModal-loaded']]),
      new Date(),
    ]) {
      expect(parsePageMessage(data, 'service')).toBeUndefined()
    }
  })

  test('success: extra fields are ignored; `payload` is accepted as an alias', () => {
    const type = 'service-choiceModal-success'
    expect(
      parsePageMessage({ type, payLoad: { id: '9', orgId: 1, name: 'x' }, extra: 1 }, 'service'),
    ).toEqual({
      event: 'success',
      detail: { folderId: '9', orgId: '1' },
    })
    expect(
      (parsePageMessage({ type, payload: { id: 9, orgId: 1 } }, 'service') as PageMessage)?.detail,
    ).toEqual({
      folderId: '9',
      orgId: '1',
    })
  })

  test('success without an orgId, or with a null one, is the personal space: orgId null', () => {
    for (const type of ['service-choiceModal-success', 'service-selector-page-success']) {
      expect(parsePageMessage({ type, payLoad: { id: 9 } }, 'service')).toEqual({
        event: 'success',
        detail: { folderId: '9', orgId: null },
      })
      expect(
        parsePageMessage({ type, payLoad: { id: '1673603133161799680', orgId: null } }, 'service'),
      ).toEqual({ event: 'success', detail: { folderId: '1673603133161799680', orgId: null } })
    }
  })

  test('success with an id beyond 2^53 as a number is unusable, named as such, never rounded', () => {
    const type = 'service-selector-page-success'
    // What structured clone delivers for 1673603133161799680 sent as a number.
    const rounded = Number('1673603133161799680')
    for (const [payLoad, name] of [
      [{ id: rounded, orgId: 7 }, 'id'],
      [{ id: 2 ** 53, orgId: 7 }, 'id'],
      [{ id: '1673603133161799680', orgId: rounded }, 'orgId'],
    ] as const) {
      const message = parsePageMessage({ type, payLoad }, 'service')
      expect(message).toEqual({
        event: 'success',
        problem: `${name} is a number beyond 2^53, rounded on its way`,
      })
      expect(JSON.stringify(message)).not.toContain(String(rounded))
    }
  })

  test('any other unusable success says what is wrong with it', () => {
    const type = 'service-choiceModal-success'
    const problem = (payLoad: unknown) =>
      (parsePageMessage({ type, payLoad }, 'service') as { problem?: string } | undefined)?.problem
    for (const payLoad of [undefined, null, 'x', [9, 1]]) {
      expect(problem(payLoad), JSON.stringify(payLoad)).toBe('payLoad is not an object')
    }
    expect(problem({ orgId: 1 })).toBe('id is missing')
    for (const id of [null, 'abc', -1, 1.5, '12345678901234567890', true, {}]) {
      expect(problem({ id, orgId: 1 }), JSON.stringify(id)).toBe('id is not an integer id')
    }
    for (const orgId of ['x'.repeat(100), -3, false, '']) {
      expect(problem({ id: 1, orgId }), JSON.stringify(orgId)).toBe('orgId is not an integer id')
    }
    // A malformed `payLoad` does not fall back to `payload`.
    expect(parsePageMessage({ type, payLoad: {}, payload: { id: 1, orgId: 1 } }, 'service')).toEqual({
      event: 'success',
      problem: 'id is missing',
    })
  })

  test('error carries the page text when there is one, capped', () => {
    const type = 'service-selector-page-error'
    const detail = (data: object) => (parsePageMessage({ type, ...data }, 'service') as PageMessage)?.detail
    expect(detail({})).toEqual({ message: undefined })
    expect(detail({ message: 'quota exceeded' })).toEqual({ message: 'quota exceeded' })
    expect(detail({ payLoad: 'network down' })).toEqual({ message: 'network down' })
    expect(detail({ payLoad: { message: 'bad file' } })).toEqual({ message: 'bad file' })
    expect(detail({ message: 42, payLoad: { code: 1 } })).toEqual({ message: undefined })
    expect(detail({ message: 'x'.repeat(10_000) })).toEqual({ message: 'x'.repeat(500) })
  })
})

describe('toId: one representation for ids, never rounded', () => {
  test('safe non-negative integers and decimal strings become decimal strings', () => {
    expect(toId(0)).toBe('0')
    expect(toId(42)).toBe('42')
    expect(toId(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991')
    expect(toId('1673603133161799680')).toBe('1673603133161799680')
    expect(toId('9223372036854775807')).toBe('9223372036854775807')
    expect(toId('007')).toBe('7')
    expect(toId('0')).toBe('0')
  })

  test('anything that is not exactly an id is refused', () => {
    for (const v of [
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      2 ** 53,
      2 ** 60,
      '',
      ' 1',
      '1 ',
      '-1',
      '+1',
      '1e3',
      '0x10',
      '1.0',
      '12345678901234567890',
      '１２',
      true,
      null,
      undefined,
      {},
      [1],
      10n,
    ]) {
      expect(toId(v), String(v)).toBeUndefined()
    }
  })
})

test('the messages the host sends have the interface shapes', () => {
  expect(initMessage('service', 'dark')).toEqual({
    type: 'service-choiceModal-init',
    data: { theme: 'dark' },
  })
  expect(initMessage('acme', 'light')).toEqual({ type: 'acme-choiceModal-init', data: { theme: 'light' } })
  expect(openMessage(['https://a/b.png'], true, 'https://a')).toEqual({
    type: 'open',
    data: { files: ['https://a/b.png'], options: { isUrl: true, link: 'https://a' } },
  })
})
