/**
 * The WebAssembly kernel of crc64.ts's long inputs: slice-by-16 over 64-bit table entries
 * (crc64.wat, assembled with wabt's `wat2wasm`; 366 bytes). 0.48x the CPU per byte of the
 * JavaScript slice-by-8 in Node, copy into its memory included (0.62x before its XORs became a
 * tree; JavaScript has no 64-bit integers: each byte there costs two 32-bit lookups). Where
 * WebAssembly is missing or refused (Node with `--jitless`), `wasmKernel` returns undefined and
 * crc64.ts stays on its JavaScript loop.
 */
/** crc64.wat assembled, base64 (crc64.test.ts assembles the source again and compares). */
export const MODULE =
  'AGFzbQEAAAABBwFgAn9+AX4DAgEABQMBABEHEwIGbWVtb3J5AgAGdXBkYXRlAAAKvAIBuQIEAX8BfgR/AX4CQANAIAIgAE8NASACKAKIgAIhBiACKAKMgAIhByAGQQN0QfgPcSkDgHAgBkEFdkH4D3EpA4BghSAGQQ12QfgPcSkDgFAgBkEVdkH4D3EpA4BAhYUgB0EDdEH4D3EpA4AwIAdBBXZB+A9xKQOAIIUgB0ENdkH4D3EpA4AQIAdBFXZB+A9xKQMAhYWFIQggASACKQOAgAKFIQMgA6chBCADQiCIpyEFIAggBEEDdEH4D3EpA4DwASAEQQV2QfgPcSkDgOABhSAEQQ12QfgPcSkDgNABIARBFXZB+A9xKQOAwAGFhSAFQQN0QfgPcSkDgLABIAVBBXZB+A9xKQOAoAGFIAVBDXZB+A9xKQOAkAEgBUEVdkH4D3EpA4CAAYWFhYUhASACQRBqIQIMAAsLIAEL'

/** Bytes hashed per call: the window of the module's memory after the tables (crc64.wat). */
const WINDOW = 1024 * 1024
const TABLES = 32 * 1024

export interface WasmCrc {
  /**
   * Runs the register (complemented, [low half, high half]) over the longest prefix of `bytes`
   * that is a multiple of 16 bytes; returns that prefix's length.
   */
  update(register: Uint32Array, bytes: Uint8Array): number
}

/** The kernel over `lo`/`hi` (16 tables of 256 halves each), or undefined when it cannot run. */
export function wasmKernel(lo: Uint32Array, hi: Uint32Array): WasmCrc | undefined {
  let exports: { memory: WebAssembly.Memory; update(n: number, crc: bigint): bigint }
  try {
    const bytes = Uint8Array.from(atob(MODULE), (c) => c.charCodeAt(0))
    exports = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as typeof exports
  } catch {
    return undefined
  }
  const tables = new Uint32Array(exports.memory.buffer, 0, TABLES / 4)
  for (let i = 0; i < 16 * 256; i++) {
    tables[2 * i] = lo[i] as number
    tables[2 * i + 1] = hi[i] as number
  }
  const window = new Uint8Array(exports.memory.buffer, TABLES, WINDOW)
  return {
    update(register, bytes) {
      const whole = bytes.length - (bytes.length % 16)
      let crc = (BigInt(register[1] as number) << 32n) | BigInt(register[0] as number)
      for (let at = 0; at < whole; at += WINDOW) {
        const n = Math.min(WINDOW, whole - at)
        window.set(bytes.subarray(at, at + n))
        crc = exports.update(n, crc)
      }
      register[0] = Number(BigInt.asUintN(32, crc))
      register[1] = Number(BigInt.asUintN(32, crc >> 32n))
      return whole
    },
  }
}
