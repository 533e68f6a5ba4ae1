import { ServiceResponseError, type UploadCredential } from '@service-sdk/core'
import { backoffDelay } from '@service-sdk/core/internal'
import { describe, expect, test } from 'vitest'
import { createChunkReader } from '../src/upload/chunk-reader.ts'
import { crc64, crc64Combine, createCrc64 } from '../src/upload/crc64.ts'
import { createCredentialsCache } from '../src/upload/credentials-cache.ts'
import { imageSize } from '../src/upload/image-size.ts'
import {
  directoryPrefix,
  MAX_KEY_BYTES,
  refuseRelativeKey,
  splitFileName,
  uniqueKey,
} from '../src/upload/key.ts'
import { objectCrc } from '../src/upload/multipart.ts'
import { DEFAULT_UPLOAD_RETRY } from '../src/upload/options.ts'
import { partSizeFor } from '../src/upload/part-feed.ts'
import { createListeners, createProgressTracker, type UploadProgress } from '../src/upload/progress.ts'

const credential = (n: number): UploadCredential => ({
  endPoint: 'oss-cn-hangzhou.aliyuncs.com',
  bucket: 'b',
  dir: 'upload/1/',
  accessKeyId: `STS.${n}`,
  accessKeySecret: `secret-${n}`,
  securityToken: `token-${n}`,
})
const silent = { debug() {}, info() {}, warn() {}, error() {} }

describe('credentials cache', () => {
  function cache(ttlMs: number) {
    let now = 1_000
    let issued = 0
    const seen: UploadCredential[] = []
    let release: (() => void) | undefined
    const gate = { hold: false }
    const c = createCredentialsCache(
      async () => {
        if (gate.hold) await new Promise<void>((resolve) => (release = resolve))
        return credential(++issued)
      },
      { ttlMs, now: () => now, onIssued: (c) => seen.push(c) },
    )
    return {
      c,
      seen,
      gate,
      issued: () => issued,
      tick: (ms: number) => (now += ms),
      release: () => release?.(),
    }
  }

  test('one sts-tmp call for every caller while fresh; a new one once ttlMs has passed', async () => {
    const { c, issued, tick, seen } = cache(300_000)
    const [a, b] = await Promise.all([c.get(), c.get()])
    expect(a).toBe(b)
    tick(299_999)
    expect(await c.get()).toBe(a)
    tick(1)
    const fresh = await c.get()
    expect(fresh.credential.accessKeyId).toBe('STS.2')
    expect(issued()).toBe(2)
    expect(seen.map((s) => s.accessKeyId)).toEqual(['STS.1', 'STS.2'])
  })

  test('callers waiting together share the call; invalidating an old entry does not drop a newer one', async () => {
    const { c, issued, gate, release } = cache(300_000)
    gate.hold = true
    const waiting = [c.get(), c.get(), c.get()]
    await new Promise((r) => setTimeout(r, 0))
    release()
    const [first] = await Promise.all(waiting)
    gate.hold = false
    expect(issued()).toBe(1)
    c.invalidate(first!)
    const second = await c.get()
    c.invalidate(first!)
    expect(await c.get()).toBe(second)
    expect(issued()).toBe(2)
  })

  test("a caller's abort rejects only that caller", async () => {
    const { c, gate, release } = cache(300_000)
    gate.hold = true
    const controller = new AbortController()
    const aborted = c.get(controller.signal)
    const other = c.get()
    await new Promise((r) => setTimeout(r, 0))
    controller.abort(new Error('stop'))
    await expect(aborted).rejects.toThrow('stop')
    release()
    expect((await other).credential.accessKeyId).toBe('STS.1')
  })

  test('an incomplete credential from sts-tmp is a ServiceResponseError, without its values', async () => {
    const c = createCredentialsCache(async () => ({ ...credential(1), securityToken: undefined }) as never, {
      ttlMs: 1,
    })
    const error = await c.get().catch((e: unknown) => e)
    expect(ServiceResponseError.isInstance(error)).toBe(true)
    expect(String((error as Error).message)).toMatch(/securityToken/)
    expect(JSON.stringify(error)).not.toContain('secret-1')
  })
})

describe('keys', () => {
  test('unique keys under the directory keep the file name; slashes and control characters are replaced', () => {
    expect(uniqueKey('upload/1/', 'a b+c é.txt', 'ID')).toBe('upload/1/ID/a b+c é.txt')
    expect(uniqueKey('upload/1', 'x.txt', 'ID')).toBe('upload/1/ID/x.txt')
    expect(uniqueKey('', 'x.txt', 'ID')).toBe('ID/x.txt')
    expect(uniqueKey('d/', '../a\\b/c\u0000.txt', 'ID')).toBe('d/ID/.._a_b_c.txt')
    expect(uniqueKey('d/', '   ', 'ID')).toBe('d/ID/file')
    expect(uniqueKey('d/', 'x.txt')).toMatch(/^d\/[0-9a-f]{32}\/x\.txt$/)
    expect(uniqueKey('d/', 'x.txt')).not.toBe(uniqueKey('d/', 'x.txt'))
  })

  test('a long name is shortened to 1023 bytes, keeping its extension and whole characters', () => {
    const key = uniqueKey('d/', `${'文'.repeat(600)}.jpeg`, 'ID')
    expect(new TextEncoder().encode(key).byteLength).toBeLessThanOrEqual(MAX_KEY_BYTES)
    expect(key.endsWith('文.jpeg')).toBe(true)
  })

  test('relative keys: no leading slash, no dot segments, no control characters', () => {
    expect(refuseRelativeKey('a/b c+d.txt')).toBeUndefined()
    for (const bad of ['', '/a', 'a//b', 'a/../b', './a', 'a\nb', ' a', 'x'.repeat(1024)]) {
      expect(refuseRelativeKey(bad)).toEqual(expect.any(String))
    }
    expect(directoryPrefix('a')).toBe('a/')
  })

  test('file names split at the last dot; dot files and trailing dots have no extension', () => {
    expect(splitFileName('report.final.pdf')).toEqual({ name: 'report.final', extension: 'pdf' })
    expect(splitFileName('.bashrc')).toEqual({ name: '.bashrc', extension: undefined })
    expect(splitFileName('README')).toEqual({ name: 'README', extension: undefined })
    expect(splitFileName('x.')).toEqual({ name: 'x.', extension: undefined })
  })
})

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

describe('sizes and timing', () => {
  test('part size grows to keep within 10,000 parts', () => {
    const MiB = 1024 * 1024
    expect(partSizeFor(80_000 * MiB, 8 * MiB)).toBe(8 * MiB)
    expect(partSizeFor(80_001 * MiB, 8 * MiB)).toBe(9 * MiB)
    expect(partSizeFor(200 * 1024 * MiB, 8 * MiB)).toBe(21 * MiB)
    expect(Math.ceil((200 * 1024 * MiB) / partSizeFor(200 * 1024 * MiB, 8 * MiB))).toBeLessThanOrEqual(10_000)
  })
  test("the upload's retries use core's backoff: doubling up to its cap, half of it random", () => {
    const policy = { ...DEFAULT_UPLOAD_RETRY, initialDelayMs: 100, maxDelayMs: 1000 }
    const delays = (random: () => number) =>
      [0, 1, 2, 3, 4].map((n) => backoffDelay(n, policy, undefined, random))
    expect(delays(() => 0)).toEqual([50, 100, 200, 400, 500])
    expect(delays(() => 1)).toEqual([100, 200, 400, 800, 1000])
    expect(DEFAULT_UPLOAD_RETRY).toMatchObject({ maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8000 })
  })
})

describe('progress', () => {
  test('a failed attempt is taken back exactly; stored parts count whole; listeners that throw are contained', () => {
    const seen: UploadProgress[] = []
    const warnings: string[] = []
    const listeners = createListeners<UploadProgress>(
      (p) => {
        seen.push(p)
        if (p.loaded === 7) throw new Error('listener bug')
      },
      { ...silent, warn: (m) => warnings.push(m) },
    )
    const tracker = createProgressTracker(listeners.emit)
    tracker.total(30)
    tracker.sent(1, 4)
    tracker.sent(2, 3)
    tracker.restart(1)
    expect(tracker.current.loaded).toBe(3)
    tracker.sent(1, 10)
    tracker.stored(1, 10)
    tracker.stored(2, 10)
    expect(tracker.current).toMatchObject({ loaded: 20, total: 30 })
    expect(seen.map((p) => p.loaded)).toEqual([0, 4, 7, 3, 13, 13, 20])
    expect(warnings).toHaveLength(1)
  })

  test('a listener that throws is logged and the others still hear every update; removed ones hear nothing', () => {
    const warnings: string[] = []
    const heard: string[] = []
    const listeners = createListeners<number>(
      () => {
        throw new Error('listener bug')
      },
      { ...silent, warn: (m) => warnings.push(m) },
    )
    listeners.add((n) => heard.push(`a${n}`))
    const remove = listeners.add((n) => heard.push(`b${n}`))
    listeners.emit(1)
    remove()
    listeners.emit(2)
    expect(heard).toEqual(['a1', 'b1', 'a2'])
    expect(warnings).toEqual(['upload: a progress listener threw', 'upload: a progress listener threw'])
  })
})

describe('rate and ETA', () => {
  test('a smoothed rate over half-second samples; ETA from it; a pause forgets the history', () => {
    let now = 0
    const tracker = createProgressTracker(
      () => {},
      () => now,
    )
    tracker.total(10_000)
    tracker.phase('uploading')
    tracker.sent(1, 100)
    expect(tracker.current.rate).toBeUndefined()
    now = 1000
    tracker.sent(1, 900) // 1,000 bytes in 1 s
    expect(tracker.current).toMatchObject({ rate: 1000, etaMs: 9000 })
    now = 2000
    tracker.sent(1, 2000) // 2,000 B/s now: 0.3 x 2000 + 0.7 x 1000
    expect(tracker.current.rate).toBeCloseTo(1300)
    expect(tracker.current.etaMs).toBe(Math.round((7000 / 1300) * 1000))
    tracker.paused(true)
    expect(tracker.current).toMatchObject({ paused: true, rate: undefined, etaMs: undefined })
    now = 60_000
    tracker.paused(false)
    tracker.sent(2, 500)
    expect(tracker.current.rate).toBeUndefined()
    now = 60_500
    tracker.sent(2, 500) // 1,000 bytes in 0.5 s since resume
    expect(tracker.current.rate).toBe(2000)
    tracker.restart(2) // a step back is no progress, not a negative rate
    now = 61_000
    tracker.sent(2, 10)
    expect(tracker.current.rate).toBeGreaterThanOrEqual(0)
  })
})

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
})
