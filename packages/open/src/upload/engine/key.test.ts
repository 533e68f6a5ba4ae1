import { describe, expect, test } from 'vitest'
import { directoryPrefix, MAX_KEY_BYTES, refuseRelativeKey, splitFileName, uniqueKey } from './key.ts'

describe('keys', () => {
  test('unique keys under the directory keep the file name; slashes and control characters are replaced', () => {
    expect(uniqueKey('upload/1/', 'a b+c é.txt', 'ID')).toBe('upload/1/ID/a b+c é.txt')
    expect(uniqueKey('upload/1', 'x.txt', 'ID')).toBe('upload/1/ID/x.txt')
    expect(uniqueKey('', 'x.txt', 'ID')).toBe('ID/x.txt')
    expect(uniqueKey('d/', '../a\\b/c\u0000.txt', 'ID')).toBe('d/ID/.._a_b_c.txt')
    expect(uniqueKey('d/', '   ', 'ID')).toBe('d/ID/file')
    expect(uniqueKey('d/', 'half\ud800 \ud83d\ude00.txt', 'ID')).toBe('d/ID/half\ufffd \ud83d\ude00.txt')
    expect(uniqueKey('d/', 'x.txt')).toMatch(/^d\/[0-9a-f]{32}\/x\.txt$/)
    expect(uniqueKey('d/', 'x.txt')).not.toBe(uniqueKey('d/', 'x.txt'))
  })

  test('a long name is shortened to 1023 bytes, keeping its extension and whole characters', () => {
    const key = uniqueKey('d/', `${'文'.repeat(600)}.jpeg`, 'ID')
    expect(new TextEncoder().encode(key).byteLength).toBeLessThanOrEqual(MAX_KEY_BYTES)
    expect(key.endsWith('文.jpeg')).toBe(true)
  })

  test('relative keys: no leading slash, no dot segments, no control characters', () => {
    expect(refuseRelativeKey('a/b c+d.txt')).toBeUndefined()
    expect(refuseRelativeKey('a/\ud83d\ude00.txt')).toBeUndefined()
    for (const bad of [
      '',
      '/a',
      'a//b',
      'a/../b',
      './a',
      'a\nb',
      ' a',
      'x'.repeat(1024),
      'a\ud800.txt',
      '\udc00',
    ]) {
      expect(refuseRelativeKey(bad)).toEqual(expect.any(String))
    }
    expect(directoryPrefix('a')).toBe('a/')
  })

  test('file names split at the last dot; dot files and trailing dots have no extension', () => {
    expect(splitFileName('report.final.pdf')).toEqual({ name: 'report.final', extension: 'pdf' })
    expect(splitFileName('.bashrc')).toEqual({ name: '.bashrc', extension: undefined })
    expect(splitFileName('README')).toEqual({ name: 'README', extension: undefined })
    expect(splitFileName('x.')).toEqual({ name: 'x.', extension: undefined })
  })
})
