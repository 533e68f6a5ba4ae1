import { describe, expect, test } from 'vitest'
import { imageSize } from './image-size.ts'

describe('image sizes', () => {
  const bytes = (hex: string, length = 64) => {
    const b = new Uint8Array(length)
    b.set(Buffer.from(hex.replace(/\s/g, ''), 'hex'))
    return b
  }
  test('PNG, GIF, BMP, WebP (VP8, VP8L, VP8X) and JPEG headers', () => {
    expect(imageSize(bytes('89504e470d0a1a0a 0000000d 49484452 00000280 000001e0'))).toEqual({
      width: 640,
      height: 480,
    })
    expect(imageSize(bytes('474946383961 2003 5802'))).toEqual({ width: 800, height: 600 })
    expect(imageSize(bytes('424d 000000000000000000000000 00000000 20000000 f0ffffff'))).toEqual({
      width: 32,
      height: 16,
    })
    const riff = (chunk: string, body: string) => bytes(`52494646 00000000 57454250 ${chunk} ${body}`)
    expect(imageSize(riff('56503820', '00000000 000000 9d012a 4001 f000'))).toEqual({
      width: 320,
      height: 240,
    })
    expect(imageSize(riff('5650384c', '00000000 2f 3f c0 3b 00'))).toEqual({ width: 64, height: 240 })
    expect(imageSize(riff('56503858', '00000000 00000000 7f0200 df0100'))).toEqual({
      width: 640,
      height: 480,
    })
    // JPEG: SOI, an APP0 segment to skip, then SOF0 (height 480, width 640).
    expect(imageSize(bytes('ffd8 ffe0 0004 0000 ffc0 0011 08 01e0 0280 03'))).toEqual({
      width: 640,
      height: 480,
    })
  })
  test('not an image, or a truncated header: no size', () => {
    expect(imageSize(bytes('00112233'))).toBeUndefined()
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBeUndefined()
    expect(imageSize(new Uint8Array(0))).toBeUndefined()
  })
})
