/**
 * CRC-64/ECMA-182 as XZ and OSS compute it (`x-oss-hash-crc64ecma`): reflected, polynomial
 * 0xC96C5795D7870F42, init and xorout all ones; "123456789" gives 11051210869376104954.
 *
 * Hand-written: the npm packages for it are either WebAssembly/emscripten builds (large in a
 * browser bundle) or byte-at-a-time BigInt loops (slow). In Node, long inputs go through a
 * 360-byte WebAssembly slice-by-16 (crc64-wasm.ts); otherwise, and for short pieces, this is
 * slice-by-8 on 32-bit halves (JavaScript has no fast 64-bit integer) over 32-bit words of the
 * input, ~1 GB/s in Node on this project's machine when it is quiet, and ~2 KB.
 * A running value is two 32-bit halves; BigInt only at the edges.
 */

import { type WasmCrc, wasmKernel } from './crc64-wasm.ts'

const POLY_LO = 0xd7870f42
const POLY_HI = 0xc96c5795

/** 16 tables of 256 entries, low and high halves (the JavaScript loop uses the first 8). */
const LO = new Uint32Array(16 * 256)
const HI = new Uint32Array(16 * 256)
for (let i = 0; i < 256; i++) {
  let lo = i
  let hi = 0
  for (let bit = 0; bit < 8; bit++) {
    const odd = lo & 1
    lo = ((lo >>> 1) | (hi << 31)) >>> 0
    hi = hi >>> 1
    if (odd) {
      lo = (lo ^ POLY_LO) >>> 0
      hi = (hi ^ POLY_HI) >>> 0
    }
  }
  LO[i] = lo
  HI[i] = hi
}
for (let t = 1; t < 16; t++) {
  for (let i = 0; i < 256; i++) {
    const lo = LO[(t - 1) * 256 + i] as number
    const hi = HI[(t - 1) * 256 + i] as number
    const index = lo & 0xff
    LO[t * 256 + i] = (((lo >>> 8) | (hi << 24)) ^ (LO[index] as number)) >>> 0
    HI[t * 256 + i] = ((hi >>> 8) ^ (HI[index] as number)) >>> 0
  }
}

/** A CRC-64 being computed over bytes that arrive in pieces. */
export interface Crc64 {
  update(bytes: Uint8Array): void
  /** The CRC of every byte so far. */
  value(): bigint
}

/** `tablesOnly`: never the WebAssembly kernel (the differential test compares the two). */
export function createCrc64(tablesOnly = false): Crc64 {
  // The register, complemented (init all ones): [low half, high half]. Filled rather than made
  // from an array literal, which goes through the iteration protocol.
  const register = new Uint32Array(2).fill(0xffffffff)
  return {
    update: (bytes) => {
      const fast = tablesOnly || bytes.length < WASM_FROM ? undefined : wasm()
      update(register, fast ? bytes.subarray(fast.update(register, bytes)) : bytes)
    },
    value: () => (BigInt(~(register[1] as number) >>> 0) << 32n) | BigInt(~(register[0] as number) >>> 0),
  }
}

/** Whether 32-bit words are stored little end first here (every platform Node and browsers run on, in practice). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/** Inputs from this long go to the WebAssembly kernel; shorter ones stay here (no call, no copy). */
const WASM_FROM = 1024

/**
 * Node only: in a browser, compiling WebAssembly under a Content-Security-Policy without
 * `wasm-unsafe-eval` would be reported as a violation, and uploads there wait on the network, not
 * on this loop.
 */
const IN_NODE =
  typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string'

/**
 * The WebAssembly kernel, made on the first long input; `null` where it cannot run (a browser,
 * Node with `--jitless`, a big-endian platform: its tables are copied in little-endian order).
 */
let kernel: WasmCrc | null | undefined
function wasm(): WasmCrc | undefined {
  if (kernel === undefined) kernel = (IN_NODE && LITTLE_ENDIAN && wasmKernel(LO, HI)) || null
  return kernel ?? undefined
}

/** Whether long inputs go through the WebAssembly kernel here. */
export function crc64UsesWasm(): boolean {
  return wasm() !== undefined
}

// The register stays in locals: V8 keeps them in registers (closure variables would be loaded
// and stored on every byte, ~15x slower).
function update(register: Uint32Array, bytes: Uint8Array): void {
  let lo = register[0] as number
  let hi = register[1] as number
  const n = bytes.length
  let i = 0
  let end = n
  // Long inputs: bytes up to a 4-byte boundary one at a time, then 8 at a time as two 32-bit
  // words (two loads instead of eight: ~1.5x faster), then the tail. Short ones, or a big-endian
  // platform (none that Node or browsers run on in practice), one byte at a time.
  if (LITTLE_ENDIAN && n >= 64) {
    i = (4 - (bytes.byteOffset % 4)) % 4
    end = i
  }
  for (let j = 0; j < end; j++) {
    const index = (lo ^ bytes[j]!) & 0xff
    lo = ((lo >>> 8) | (hi << 24)) ^ LO[index]!
    hi = (hi >>> 8) ^ HI[index]!
  }
  if (end === n) {
    register[0] = lo >>> 0
    register[1] = hi >>> 0
    return
  }
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, ((n - i) >>> 3) << 1)
  register[0] = lo
  register[1] = hi
  for (let at = 0; at < words.length; at += BLOCK_WORDS)
    slices(register, words, at, Math.min(words.length, at + BLOCK_WORDS))
  update(register, bytes.subarray(i + words.length * 4))
}

/**
 * Words per call of `slices`: one call for a whole file ran its loop long enough for V8 to compile
 * it mid-way (on-stack replacement) before the code after the loop had ever run, and that
 * compiled loop then left through a deoptimization on every later call, one per small file (seen
 * with --trace-deopt). Calls over 4 KiB blocks are compiled as a whole function.
 */
const BLOCK_WORDS = 1024

/** Slice-by-8 over little-endian pairs of 32-bit words, words [from, to). */
function slices(register: Uint32Array, words: Uint32Array, from: number, to: number): void {
  let lo = register[0] as number
  let hi = register[1] as number
  const T = LO
  const U = HI
  for (let w = from; w < to; w += 2) {
    const a = (lo ^ words[w]!) >>> 0
    const b = (hi ^ words[w + 1]!) >>> 0
    const i0 = 1792 + (a & 0xff)
    const i1 = 1536 + ((a >>> 8) & 0xff)
    const i2 = 1280 + ((a >>> 16) & 0xff)
    const i3 = 1024 + (a >>> 24)
    const i4 = 768 + (b & 0xff)
    const i5 = 512 + ((b >>> 8) & 0xff)
    const i6 = 256 + ((b >>> 16) & 0xff)
    const i7 = b >>> 24
    lo = T[i0]! ^ T[i1]! ^ T[i2]! ^ T[i3]! ^ T[i4]! ^ T[i5]! ^ T[i6]! ^ T[i7]!
    hi = U[i0]! ^ U[i1]! ^ U[i2]! ^ U[i3]! ^ U[i4]! ^ U[i5]! ^ U[i6]! ^ U[i7]!
  }
  register[0] = lo >>> 0
  register[1] = hi >>> 0
}

/** The CRC-64 of `chunks`, one after another. */
export function crc64(...chunks: readonly Uint8Array[]): bigint {
  const crc = createCrc64()
  for (const chunk of chunks) crc.update(chunk)
  return crc.value()
}

const POLY = 0xc96c5795d7870f42n
const TOP = 1n << 63n
const MASK = (1n << 64n) - 1n

/** a x b modulo the polynomial, in the reflected representation (zlib's multmodp). */
function multiply(a: bigint, b: bigint): bigint {
  let m = TOP
  let p = 0n
  for (;;) {
    if (a & m) {
      p ^= b
      if ((a & (m - 1n)) === 0n) break
    }
    m >>= 1n
    b = b & 1n ? (b >> 1n) ^ POLY : b >> 1n
  }
  return p & MASK
}

/** x^(2^k) modulo the polynomial, for k = 0..63 (zlib's x2n_table). */
const X2N: bigint[] = [TOP >> 1n]
for (let k = 1; k < 64; k++) X2N.push(multiply(X2N[k - 1] as bigint, X2N[k - 1] as bigint))

/**
 * The CRC of A followed by B, from CRC(A), CRC(B) and B's length (zlib's crc32_combine, for 64
 * bits): parts read in parallel give the object's CRC without reading it again.
 */
export function crc64Combine(crcA: bigint, crcB: bigint, lengthB: number): bigint {
  // x^(8 * lengthB): the length in bits, as powers of two (k starts at 3 for the 8).
  let p = TOP
  let n = lengthB
  for (let k = 3; n > 0; k++, n = Math.floor(n / 2)) if (n % 2 === 1) p = multiply(X2N[k & 63] as bigint, p)
  return multiply(p, crcA) ^ crcB
}
