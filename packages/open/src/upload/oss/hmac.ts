import type { Hmac } from './request.ts'

export interface NodeCrypto {
  createHmac(
    algorithm: string,
    key: string,
  ): {
    update(text: string): { digest(encoding: 'base64'): string; digest(): Uint8Array }
  }
  createHash(algorithm: string): { update(text: string): { digest(encoding: 'base64'): string } }
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean
}

/**
 * `node:crypto` where the runtime has it (Node, Bun, Deno), reached without a static `node:`
 * import so that this module also runs in browsers and edge runtimes (which get `undefined`).
 */
export const nodeCrypto: NodeCrypto | undefined = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined

/**
 * HMAC-SHA1 under `secret`, base64 (the OSS V1 signature): `node:crypto`'s, synchronous, where
 * there is one; Web Crypto's otherwise. Measured on Node 24 for one part's string to sign:
 * 2.6 µs with `node:crypto`, 80 µs with `crypto.subtle` (a promise, a key lookup and copies).
 */
export function hmacSha1(secret: string, node: NodeCrypto | null = nodeCrypto ?? null): Hmac {
  if (node) return (text) => node.createHmac('sha1', secret).update(text).digest('base64')
  const encoder = new TextEncoder()
  const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-1' }, false, [
    'sign',
  ])
  return async (text) => {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(text)))
    let binary = ''
    for (const byte of mac) binary += String.fromCharCode(byte)
    return btoa(binary)
  }
}

/** Base64 MD5 of a text (Content-MD5), where the runtime has it; Web Crypto has no MD5. */
export function md5Base64(text: string): string | undefined {
  return nodeCrypto?.createHash('md5').update(text).digest('base64')
}
