/** A Web stream over chunks held in memory, limited to [start, end] (inclusive), without copying. */
export function chunkStream(
  chunks: readonly Uint8Array[],
  start: number,
  end: number,
): ReadableStream<Uint8Array> {
  let index = 0
  let offset = 0 // absolute position of chunks[index]
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      while (index < chunks.length) {
        const chunk = chunks[index] as Uint8Array
        const chunkStart = offset
        index++
        offset += chunk.byteLength
        if (offset <= start || chunk.byteLength === 0) continue
        if (chunkStart > end) break
        controller.enqueue(
          chunk.subarray(Math.max(0, start - chunkStart), Math.min(chunk.byteLength, end + 1 - chunkStart)),
        )
        return
      }
      controller.close()
    },
  })
}
