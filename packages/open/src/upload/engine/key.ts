import { utf8Length } from '../oss/utf8-length.ts'

/** OSS object names are at most 1023 bytes of UTF-8. */
export const MAX_KEY_BYTES = 1023

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const CONTROL = /[\u0000-\u001f\u007f]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above (no `g`: `test` must not keep state)
const HAS_CONTROL = /[\u0000-\u001f\u007f]/
/**
 * A UTF-16 surrogate without its other half (a paired one is part of a code point of its own):
 * no URL can carry it, so a key holding one could not be sent.
 */
const LONE_SURROGATES = /\p{Cs}/gu
const HAS_LONE_SURROGATE = /\p{Cs}/u

/** `dir` as a prefix: a directory without its trailing slash still gets one. */
export function directoryPrefix(dir: string): string {
  return dir === '' || dir.endsWith('/') ? dir : `${dir}/`
}

// Random bytes drawn 4 KiB at a time: one getRandomValues call per 256 keys, not per key.
let pool = new Uint8Array(0)
let drawn = 0
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'))

/** 16 random bytes as hex: works in every browser context (`randomUUID` needs a secure one). */
export function randomId(): string {
  if (drawn + 16 > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(4096))
    drawn = 0
  }
  let id = ''
  for (let i = drawn; i < drawn + 16; i++) id += HEX[pool[i] as number]
  drawn += 16
  return id
}

/**
 * A unique key under the credential's directory that keeps the file's name readable:
 * `<dir><32 hex>/<file name>`. Slashes, control characters and lone surrogates (as U+FFFD) in the
 * name are replaced, and a long name is shortened (keeping its extension) to fit OSS's 1023 bytes.
 */
export function uniqueKey(dir: string, fileName: string, id: string = randomId()): string {
  const prefix = `${directoryPrefix(dir)}${id}/`
  let name =
    fileName.replace(CONTROL, '').replace(/[/\\]/g, '_').replace(LONE_SURROGATES, '\ufffd').trim() || 'file'
  const room = MAX_KEY_BYTES - utf8Length(prefix)
  if (utf8Length(name) > room) {
    const dot = name.lastIndexOf('.')
    const extension = dot > 0 && utf8Length(name.slice(dot)) <= 32 ? name.slice(dot) : ''
    let stem = name.slice(0, name.length - extension.length)
    while (stem.length > 0 && utf8Length(stem) + utf8Length(extension) > room)
      stem = Array.from(stem).slice(0, -1).join('')
    name = stem + extension
  }
  return prefix + name
}

/** Why `key` (relative to the credential's directory) is not a usable key, or `undefined`. */
export function refuseRelativeKey(key: string): string | undefined {
  if (key === '' || key.trim() !== key) return 'must not be empty or start or end with spaces'
  if (key.startsWith('/')) return 'is relative to the directory of the upload credentials: no leading "/"'
  if (HAS_CONTROL.test(key)) return 'must not contain control characters'
  if (HAS_LONE_SURROGATE.test(key))
    return 'must be well-formed text (it holds half of a UTF-16 surrogate pair)'
  if (key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'must not contain empty, "." or ".." segments'
  }
  if (utf8Length(key) > MAX_KEY_BYTES) return `must be at most ${MAX_KEY_BYTES} bytes`
  return undefined
}

/** Splits `report.final.pdf` into `report.final` and `pdf`; a name without a dot has no extension. */
export function splitFileName(fileName: string): { name: string; extension: string | undefined } {
  const dot = fileName.lastIndexOf('.')
  if (dot <= 0 || dot === fileName.length - 1) return { name: fileName, extension: undefined }
  return { name: fileName.slice(0, dot), extension: fileName.slice(dot + 1) }
}
