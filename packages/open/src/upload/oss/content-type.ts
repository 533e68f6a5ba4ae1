/// <reference path="../../mime.d.ts" />
import mime from 'mime'

/**
 * The object's type from its key's extension, from the `mime` table ali-oss uses on Node (Node's
 * `path.extname`: the last dot of the last segment, not a leading one). Imported by the Node
 * platform and the upload proxy only: a browser bundle carries no table.
 */
export function typeOfKey(key: string): string | undefined {
  const name = key.slice(key.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot > 0 ? (mime.getType(name.slice(dot)) ?? undefined) : undefined
}
