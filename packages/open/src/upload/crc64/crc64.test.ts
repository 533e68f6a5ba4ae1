import { readFileSync } from 'node:fs'
import { describe, expect, test, vi } from 'vitest'
import wabt from 'wabt'
import { objectCrc } from '../engine/multipart.ts'
import { crc64, crc64Combine, crc64UsesWasm, createCrc64 } from './crc64.ts'
import { MODULE, wasmKernel } from './crc64-wasm.ts'

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

describe('CRC-64/ECMA, the WebAssembly kernel against the tables alone', () => {
  test('the embedded module is crc64.wat, assembled', async () => {
    const source = readFileSync(new URL('./crc64.wat', import.meta.url), 'utf8')
    const { buffer } = (await wabt()).parseWat('crc64.wat', source).toBinary({})
    expect(Buffer.from(buffer).toString('base64')).toBe(MODULE)
  })

  test('the same CRC for every length, alignment and cut into pieces, across its 1 MiB window', () => {
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) >>> 0
      return seed >>> 8
    }
    const bytes = new Uint8Array(2 * 1024 * 1024 + 333).map(() => random() & 0xff)
    const lengths = [0, 1, 15, 16, 17, 1023, 1024, 1025, 4096 + 7, 65_536, 1024 * 1024, 1024 * 1024 + 31]
    lengths.push(bytes.length - 3)
    for (const length of lengths) {
      for (const offset of [0, 1, 3, 8]) {
        const view = bytes.subarray(offset, offset + length)
        const fast = createCrc64()
        const tables = createCrc64(true)
        // Pieces of varying sizes, long and short, so both paths meet mid-stream.
        for (let at = 0; at < view.length; ) {
          const size = [5000, 13, 70_001, 1024, 16][random() % 5] as number
          fast.update(view.subarray(at, at + size))
          tables.update(view.subarray(at, at + size))
          at += size
        }
        expect(fast.value()).toBe(tables.value())
        expect(crc64(view)).toBe(tables.value())
      }
    }
  })

  test('runs in Node; where WebAssembly is refused, there is no kernel and the tables do the work', () => {
    expect(crc64UsesWasm()).toBe(true)
    const refused = vi.spyOn(WebAssembly, 'Module').mockImplementation(() => {
      throw new WebAssembly.CompileError('WebAssembly is disabled')
    })
    try {
      expect(wasmKernel(new Uint32Array(4096), new Uint32Array(4096))).toBeUndefined()
    } finally {
      refused.mockRestore()
    }
  })
})
