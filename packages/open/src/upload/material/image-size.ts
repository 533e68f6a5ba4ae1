// Hand-written rather than the `image-size` package, for the first upload's weight in browsers
// (this file is in the upload engine's chunk): minified with rolldown, this sniffer is 1,513 bytes
// (788 gzip, 714 brotli); image-size 2.1.0's `imageSize` is 13,303 (5,292 gzip, 4,824 brotli),
// and its PNG, GIF, BMP, WebP and JPEG handlers alone 2,948 (1,433 gzip, 1,329 brotli). Besides,
// image-size throws for a JPEG whose frame header lies beyond the 64 KiB head read here ("Corrupt
// JPG, exceeded buffer limits") and for any other file, where an upload only needs "no size".

/** Bytes read from the start of a file to find its dimensions. */
export const IMAGE_HEAD_BYTES = 64 * 1024

export interface ImageSize {
  width: number
  height: number
}

/**
 * Width and height of a PNG, GIF, JPEG, WebP or BMP from its first bytes, when they say (a JPEG
 * whose frame header lies beyond the bytes given has none here). Dimensions as stored: an EXIF
 * rotation is not applied.
 */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const ascii = (at: number, length: number) =>
    at + length <= bytes.length ? String.fromCharCode(...bytes.subarray(at, at + length)) : ''
  const sized = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined)

  if (bytes.length >= 24 && ascii(1, 3) === 'PNG' && ascii(12, 4) === 'IHDR') {
    return sized(view.getUint32(16), view.getUint32(20))
  }
  if (bytes.length >= 10 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) {
    return sized(view.getUint16(6, true), view.getUint16(8, true))
  }
  if (bytes.length >= 26 && ascii(0, 2) === 'BM') {
    return sized(Math.abs(view.getInt32(18, true)), Math.abs(view.getInt32(22, true)))
  }
  if (bytes.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP')
    return webp(bytes, view, ascii(12, 4))
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes, view)
  return undefined
}

function webp(bytes: Uint8Array, view: DataView, chunk: string): ImageSize | undefined {
  if (chunk === 'VP8 ')
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff }
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const b1 = bytes[22] ?? 0
    const b2 = bytes[23] ?? 0
    const b3 = bytes[24] ?? 0
    return {
      width: 1 + (((b1 & 0x3f) << 8) | (bytes[21] ?? 0)),
      height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)),
    }
  }
  if (chunk === 'VP8X') {
    const u24 = (at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16)
    return { width: 1 + u24(24), height: 1 + u24(27) }
  }
  return undefined
}

function jpeg(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = bytes[at + 1] ?? 0
    if (marker === 0xff) {
      at++
      continue
    }
    // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry the dimensions.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(at + 5)
      const width = view.getUint16(at + 7)
      return width > 0 && height > 0 ? { width, height } : undefined
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    at += 2 + view.getUint16(at + 2)
  }
  return undefined
}
