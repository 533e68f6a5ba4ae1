import { sameEtag } from './etag.ts'
import {
  type CompletePart,
  MAX_PART_NUMBER,
  MIN_PART_SIZE,
  ObjectStoreError,
  type StoredPart,
} from './store.ts'

/**
 * The parts a CompleteMultipartUpload commits, validated in the order OSS reports problems:
 * an empty list is malformed, numbers must strictly ascend, each part must exist with the ETag
 * given, and every part but the last must reach the minimum size.
 */
export function selectParts<P extends Pick<StoredPart, 'partNumber' | 'etag' | 'size'>>(
  requested: readonly CompletePart[],
  uploaded: ReadonlyMap<number, P>,
): P[] {
  if (requested.length === 0) throw new ObjectStoreError('MalformedXML', 'The list of parts is empty.')
  let previous = 0
  for (const { partNumber } of requested) {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
      throw new ObjectStoreError('InvalidPart', `Part number ${partNumber} is out of range.`, {
        PartNumber: String(partNumber),
      })
    }
    if (partNumber <= previous) throw new ObjectStoreError('InvalidPartOrder')
    previous = partNumber
  }
  const selected = requested.map(({ partNumber, etag }) => {
    const part = uploaded.get(partNumber)
    if (!part || !sameEtag(part.etag, etag)) {
      throw new ObjectStoreError('InvalidPart', undefined, { PartNumber: String(partNumber), ETag: etag })
    }
    return part
  })
  selected.forEach((part, index) => {
    if (index < selected.length - 1 && part.size < MIN_PART_SIZE) {
      throw new ObjectStoreError('EntityTooSmall', undefined, {
        PartNumber: String(part.partNumber),
        ProposedSize: String(part.size),
        MinSizeAllowed: String(MIN_PART_SIZE),
      })
    }
  })
  return selected
}
