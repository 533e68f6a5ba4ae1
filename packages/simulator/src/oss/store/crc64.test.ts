import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { combineCrc64, crc64, createCrc64 } from './crc64.ts'

/** Bit by bit, straight from the definition: the reference the table-driven code must match. */
function crc64Reference(data: Uint8Array): string {
  let crc = 0xffffffffffffffffn
  for (const byte of data) {
    crc ^= BigInt(byte)
    for (let bit = 0; bit < 8; bit++) crc = crc & 1n ? (crc >> 1n) ^ 0xc96c5795d7870f42n : crc >> 1n
  }
  return (crc ^ 0xffffffffffffffffn).toString()
}

describe('crc64', () => {
  it('gives the CRC-64/XZ check value for "123456789"', () => {
    expect(crc64(Buffer.from('123456789'))).toBe('11051210869376104954')
  })

  it('of nothing is 0', () => {
    expect(crc64(new Uint8Array(0))).toBe('0')
  })

  it('matches the bitwise definition for every length up to 40 and any chunking', () => {
    const data = randomBytes(40)
    for (let n = 0; n <= 40; n++) expect(crc64(data.subarray(0, n))).toBe(crc64Reference(data.subarray(0, n)))
    const crc = createCrc64()
    for (const size of [3, 1, 8, 13, 0, 15]) crc.update(data.subarray(0, size))
    expect(crc.digest()).toBe(
      crc64Reference(Buffer.concat([3, 1, 8, 13, 0, 15].map((size) => data.subarray(0, size)))),
    )
  })

  it('combines the CRCs of consecutive pieces into the CRC of the whole', () => {
    const pieces = [randomBytes(100 * 1024 + 7), randomBytes(100 * 1024 + 7), randomBytes(3), randomBytes(0)]
    let combined = crc64(pieces[0] as Buffer)
    for (const piece of pieces.slice(1)) combined = combineCrc64(combined, crc64(piece), piece.length)
    expect(combined).toBe(crc64(Buffer.concat(pieces)))
  })
})
