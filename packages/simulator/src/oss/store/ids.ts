import { randomBytes } from 'node:crypto'

/** Upload ids as OSS prints them: 32 upper-case hex digits. */
export function newUploadId(): string {
  return randomBytes(16).toString('hex').toUpperCase()
}

/** Ids come back from clients; anything else cannot name an upload (and never reaches a path). */
export function isUploadId(value: string): boolean {
  return /^[0-9A-F]{32}$/.test(value)
}
