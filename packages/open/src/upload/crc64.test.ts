import { describe, expect, test } from 'vitest'
import { crc64, crc64Combine, createCrc64 } from './crc64.ts'
import { objectCrc } from './multipart.ts'

describe('CRC-64/ECMA', () => {
  test('the check value of the XZ catalogue; pieces and combined parts give the whole', () => {
    const text = new TextEncoder().encode('123456789')
    expect(crc64(text)).toBe(11051210869376104954n)
    expect(crc64(new Uint8Array(0))).toBe(0n)
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 7919) % 251)
    const whole = crc64(bytes)
    // Slice-by-8 and the byte loop agree at every alignment.
    const running = createCrc64()
    for (let at = 0; at < bytes.length; at += 13) running.update(bytes.subarray(at, at + 13))
    expect(running.value()).toBe(whole)
    const parts = [bytes.subarray(0, 40_000), bytes.subarray(40_000, 40_001), bytes.subarray(40_001)]
    const combined = parts.reduce((crc, part) => crc64Combine(crc, crc64(part), part.length), 0n)
    expect(combined).toBe(whole)
    expect(
      objectCrc(parts.map((p, i) => ({ number: i + 1, etag: '', size: p.length, crc: String(crc64(p)) }))),
    ).toBe(whole)
    expect(objectCrc([{ number: 1, etag: '', size: 1 }])).toBeUndefined()
  })

  test('the word loop (long inputs) agrees with the byte loop (short pieces) at every byte offset', () => {
    const bytes = new Uint8Array(4099).map((_, i) => (i * 7919) % 251)
    for (let offset = 0; offset < 4; offset++) {
      const view = bytes.subarray(offset)
      const bytewise = createCrc64()
      for (let at = 0; at < view.length; at += 13) bytewise.update(view.subarray(at, at + 13))
      expect(crc64(view)).toBe(bytewise.value())
    }
  })
})
