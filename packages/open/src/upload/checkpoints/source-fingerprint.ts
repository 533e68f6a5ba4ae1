/** What identifies a source's bytes across processes: a file's path (or `File.name`), size and mtime. */
export interface SourceFingerprint {
  /** The absolute path (Node) or the `File`'s name (browsers). */
  name: string
  size: number
  /** Last modification, epoch milliseconds. */
  lastModified: number
}

export function sameSource(a: SourceFingerprint, b: SourceFingerprint): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified
}
