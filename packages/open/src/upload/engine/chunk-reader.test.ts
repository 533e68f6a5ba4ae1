import { describe, expect, test } from 'vitest'
import { createChunkReader } from './chunk-reader.ts'

describe('chunk reader', () => {
  test('exact part sizes across uneven chunks, without copying; the end is seen ahead', async () => {
    const source = Buffer.from('abcdefghijklmnopqrstuvwxyz')
    async function* chunks() {
      yield source.subarray(0, 3)
      yield new Uint8Array(0)
      yield source.subarray(3, 11)
      yield source.subarray(11)
    }
    const reader = createChunkReader(chunks())
    const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString()
    expect(text(await reader.read(5))).toBe('abcde')
    expect(await reader.ended()).toBe(false)
    expect(text(await reader.read(5))).toBe('fghij')
    expect(text(await reader.read(100))).toBe('klmnopqrstuvwxyz')
    expect(await reader.ended()).toBe(true)
    expect(await reader.read(5)).toEqual([])
    expect(Buffer.from(reader.head()).toString()).toBe('abcdefghijklmnopqrstuvwxyz')
    const [view] = await createChunkReader(chunks()).read(2)
    expect(view?.buffer).toBe(source.buffer)
  })
  test('a stream of strings is refused', async () => {
    async function* strings() {
      yield 'text'
    }
    await expect(createChunkReader(strings()).read(10)).rejects.toThrow(/must produce bytes/)
  })
})
