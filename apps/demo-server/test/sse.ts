export interface SseMessage {
  event: string
  data: string
  id: string | undefined
}

/** Read a text/event-stream response message by message (comments skipped). */
export function readSse(response: Response) {
  if (!response.body) throw new Error('no body')
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  const queue: SseMessage[] = []

  const parse = (block: string): SseMessage | undefined => {
    let event = 'message'
    let id: string | undefined
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') event = value
      else if (field === 'data') data.push(value)
      else if (field === 'id') id = value
    }
    return data.length === 0 ? undefined : { event, data: data.join('\n'), id }
  }

  const next = async (): Promise<SseMessage> => {
    for (;;) {
      const queued = queue.shift()
      if (queued) return queued
      const { done, value } = await reader.read()
      if (done) throw new Error('the event stream ended')
      buffer += value
      let end = buffer.indexOf('\n\n')
      while (end !== -1) {
        const message = parse(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
        if (message) queue.push(message)
        end = buffer.indexOf('\n\n')
      }
    }
  }

  return {
    next,
    /** The next message that satisfies `test` (earlier ones are dropped). */
    async until(test: (message: SseMessage) => boolean): Promise<SseMessage> {
      for (;;) {
        const message = await next()
        if (test(message)) return message
      }
    },
    close: () => reader.cancel().catch(() => {}),
  }
}
