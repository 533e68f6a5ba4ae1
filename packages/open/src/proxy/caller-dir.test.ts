import { describe, expect, test } from 'vitest'
import { createCallerDirs } from './caller-dir.ts'

const dirs = createCallerDirs('a secret of the proxy, long enough')

describe('caller directories', () => {
  test("a caller's directory is under the STS dir, stable, and differs per caller and per secret", async () => {
    const alice = await dirs.dirFor('upload/7/', 'alice')
    expect(alice).toMatch(/^upload\/7\/u[\w-]{22}\/$/)
    expect(await dirs.dirFor('upload/7/', 'alice')).toBe(alice)
    expect(await dirs.dirFor('upload/7/', 'bob')).not.toBe(alice)
    expect(await createCallerDirs('another secret, long enough').dirFor('upload/7/', 'alice')).not.toBe(alice)
  })

  test('an STS dir without its trailing slash, or empty, still gives a directory', async () => {
    expect(await dirs.dirFor('upload/7', 'alice')).toBe(await dirs.dirFor('upload/7/', 'alice'))
    expect(await dirs.dirFor('', 'alice')).toMatch(/^u[\w-]{22}\/$/)
  })

  test("keys under the caller's directory are the caller's, at any depth below it", async () => {
    const dir = await dirs.dirFor('upload/7/', 'alice')
    expect(await dirs.owns(`${dir}f00d/photo.jpg`, 'alice')).toBe(true)
    expect(await dirs.owns(`${dir}photo.jpg`, 'alice')).toBe(true)
    const root = await dirs.dirFor('', 'alice')
    expect(await dirs.owns(`${root}x/photo.jpg`, 'alice')).toBe(true)
  })

  test("another caller's key, a key without the mark, a forged mark, or a mark moved elsewhere is refused", async () => {
    const dir = await dirs.dirFor('upload/7/', 'alice')
    const mark = dir.split('/')[2] as string
    expect(await dirs.owns(`${dir}f00d/photo.jpg`, 'bob')).toBe(false)
    expect(await dirs.owns('upload/7/f00d/photo.jpg', 'alice')).toBe(false)
    expect(await dirs.owns(`upload/7/u${'A'.repeat(22)}/photo.jpg`, 'alice')).toBe(false)
    // The mark binds the directory it was issued under: the same mark under another prefix is not the caller's.
    expect(await dirs.owns(`upload/8/${mark}/photo.jpg`, 'alice')).toBe(false)
    // The mark as the file name (no directory below it) is not a directory of the caller.
    expect(await dirs.owns(`upload/7/${mark}`, 'alice')).toBe(false)
  })

  test('keys that are not plain relative keys are refused even with the mark', async () => {
    const dir = await dirs.dirFor('upload/7/', 'alice')
    for (const key of [`${dir}../x`, `/${dir}x`, `${dir}a//b`, `${dir}x\u0000`, ` ${dir}x`]) {
      expect(await dirs.owns(key, 'alice')).toBe(false)
    }
  })
})
