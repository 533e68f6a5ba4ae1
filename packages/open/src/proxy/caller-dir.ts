import { refuseRelativeKey } from '../upload/engine/key.ts'
import { nodeCrypto } from '../upload/oss/hmac.ts'

/**
 * Each caller's upload directory: `<dir of the STS answer><mark>/`, where the mark is an HMAC of
 * the caller's id and that directory under the proxy's secret. On save, the proxy re-derives the
 * mark from the caller `authorize` returned: a key is the caller's only when one of its segments
 * is the mark for the caller and the path before it. Nothing is stored, so any number of proxy
 * instances sharing the secret agree, and a directory stays the caller's across credentials (an
 * interrupted upload resumes into it).
 */
export interface CallerDirs {
  /** The directory the caller's credentials are handed out with. */
  dirFor(stsDir: string, callerId: string): Promise<string>
  /** Whether `key` lies in a directory handed to this caller. */
  owns(key: string, callerId: string): Promise<boolean>
}

const encoder = new TextEncoder()
const MARK_LENGTH = 22

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/**
 * Whether two marks are equal, in time independent of where they differ (a mark is a MAC):
 * `crypto.timingSafeEqual` where `node:crypto` is (Node, Bun, Deno); elsewhere (edge runtimes)
 * the SHA-256 digests of both are compared, which tells a timing attacker nothing about the mark.
 */
async function sameMark(a: string, b: string): Promise<boolean> {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  if (x.byteLength !== y.byteLength) return false
  if (nodeCrypto) return nodeCrypto.timingSafeEqual(x, y)
  const [dx, dy] = await Promise.all([crypto.subtle.digest('SHA-256', x), crypto.subtle.digest('SHA-256', y)])
  return base64url(new Uint8Array(dx)) === base64url(new Uint8Array(dy))
}

/** How many callers' marks are kept: a sign call's requests share one, and so do a user's calls. */
const MARKS_KEPT = 4096

/**
 * HMAC-SHA-256 with `node:crypto` where the runtime has it (synchronous, ~2 µs), else Web Crypto
 * (~80 µs, a promise: edge runtimes); no `node:` import either way. Marks are remembered: the
 * proxy checks a caller's keys on every signed request. With bench/proxy, a Web Crypto HMAC per
 * request cost 108 µs of CPU per signed part; this (and the check of a key against the caller's
 * current directory first, in operations.ts), 19 µs.
 */
export function createCallerDirs(secret: string): CallerDirs {
  const node = nodeCrypto
  const keyPromise = node
    ? undefined
    : crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ])
  const known = new Map<string, string>()
  const mac = async (message: string): Promise<Uint8Array> =>
    node
      ? node.createHmac('sha256', secret).update(message).digest()
      : new Uint8Array(
          await crypto.subtle.sign('HMAC', (await keyPromise) as CryptoKey, encoder.encode(message)),
        )
  const mark = async (prefix: string, callerId: string) => {
    // JSON: the id and the prefix cannot run into each other, whatever characters they hold.
    const message = JSON.stringify(['service-sdk upload dir', callerId, prefix])
    let found = known.get(message)
    if (found === undefined) {
      // 128 bits of the MAC: enough that no one guesses a caller's mark.
      found = `u${base64url((await mac(message)).subarray(0, 16)).slice(0, MARK_LENGTH)}`
      if (known.size >= MARKS_KEPT) known.clear()
      known.set(message, found)
    }
    return found
  }
  return {
    async dirFor(stsDir, callerId) {
      const prefix = stsDir === '' || stsDir.endsWith('/') ? stsDir : `${stsDir}/`
      return `${prefix}${await mark(prefix, callerId)}/`
    },
    async owns(key, callerId) {
      if (refuseRelativeKey(key) !== undefined) return false
      const segments = key.split('/')
      for (let i = 0; i < segments.length - 1; i++) {
        if (segments[i]?.length !== MARK_LENGTH + 1) continue
        const prefix = segments
          .slice(0, i)
          .map((s) => `${s}/`)
          .join('')
        if (await sameMark(segments[i] as string, await mark(prefix, callerId))) return true
      }
      return false
    },
  }
}
