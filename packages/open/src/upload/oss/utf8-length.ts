/**
 * The UTF-8 length of `text` as `TextEncoder` encodes it (a lone surrogate as U+FFFD, 3 bytes),
 * counted without making the bytes: every upload measures its key, and a multipart upload its
 * completion's XML (utf8-length.test.ts holds it to `TextEncoder` on arbitrary strings).
 */
export function utf8Length(text: string): number {
  let n = text.length
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) continue
    if (c < 0x800) n += 1
    else if (c <= 0xdbff && c >= 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two code units, four bytes.
      n += 2
      i++
    } else n += 2
  }
  return n
}
