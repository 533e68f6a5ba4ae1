import { describe, expect, test } from 'vitest'
import { partSizeFor } from './part-feed.ts'

describe('part sizes', () => {
  test('part size grows to keep within 10,000 parts', () => {
    const MiB = 1024 * 1024
    expect(partSizeFor(80_000 * MiB, 8 * MiB)).toBe(8 * MiB)
    expect(partSizeFor(80_001 * MiB, 8 * MiB)).toBe(9 * MiB)
    expect(partSizeFor(200 * 1024 * MiB, 8 * MiB)).toBe(21 * MiB)
    expect(Math.ceil((200 * 1024 * MiB) / partSizeFor(200 * 1024 * MiB, 8 * MiB))).toBeLessThanOrEqual(10_000)
  })
})
