import { describe, expect, it } from 'vitest'
import { BodyBytes, isJsonContentType, readCapped } from './body.ts'

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/cloudevents+json', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%s -> %s', (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected)
  })
})

/** A source of `total` bytes in 16 KiB chunks that records how many it was asked for. */
function source(total: number) {
  const chunk = new Uint8Array(16 * 1024).fill(0x20)
  const state = { pulled: 0, cancelled: false }
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= total) return controller.close()
        state.pulled += chunk.byteLength
        controller.enqueue(chunk)
      },
      cancel() {
        state.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  async function* iterable() {
    while (state.pulled < total) {
      state.pulled += chunk.byteLength
      yield chunk
    }
  }
  return { stream, iterable, state }
}

describe('readCapped', () => {
  it('reads a body under the cap whole', async () => {
    const { stream } = source(64 * 1024)
    expect((await readCapped(stream, 100 * 1024)).byteLength).toBe(64 * 1024)
  })

  it('stops reading a stream at the first chunk beyond the cap, and cancels it', async () => {
    const { stream, state } = source(100 * 1024 * 1024)
    await expect(readCapped(stream, 64 * 1024)).rejects.toMatchObject({
      code: 'payload_too_large',
      status: 413,
    })
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024 + 2 * 16 * 1024)
    expect(state.cancelled).toBe(true)
  })

  it('stops reading an async iterable beyond the cap', async () => {
    const { iterable, state } = source(100 * 1024 * 1024)
    await expect(readCapped(iterable(), 64 * 1024)).rejects.toMatchObject({ code: 'payload_too_large' })
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024 + 16 * 1024)
  })

  it('refuses a declared Content-Length beyond the cap without reading at all', async () => {
    const { stream, state } = source(1024)
    await expect(readCapped(stream, 512, '1000000')).rejects.toMatchObject({ code: 'payload_too_large' })
    expect(state.pulled).toBe(0)
  })

  it('does not trust a Content-Length that understates the body', async () => {
    const { stream } = source(64 * 1024)
    await expect(readCapped(stream, 1024, '10')).rejects.toMatchObject({ code: 'payload_too_large' })
  })

  it('reads no body as empty', async () => {
    expect((await readCapped(null, 10)).byteLength).toBe(0)
  })
})

describe('BodyBytes', () => {
  it('with a declared length, puts the bytes into one buffer of that size: no concatenation', () => {
    const body = new BodyBytes(1024 * 1024, 64 * 1024)
    for (let i = 0; i < 4; i++) expect(body.add(new Uint8Array(16 * 1024).fill(65 + i))).toBe(true)
    const whole = body.whole()
    expect(whole.buffer.byteLength).toBe(64 * 1024)
    expect(whole.toString('latin1')).toBe(['A', 'B', 'C', 'D'].map((c) => c.repeat(16 * 1024)).join(''))
  })

  it('keeps chunks beyond a declared length that was too small, and stops at the cap', () => {
    const body = new BodyBytes(40, 10)
    expect(body.add(Buffer.from('0123456789'))).toBe(true)
    expect(body.add(Buffer.from('abcdefghij'))).toBe(true)
    expect(body.whole().toString()).toBe('0123456789abcdefghij')
    expect(body.add(Buffer.alloc(21))).toBe(false)
  })
})
