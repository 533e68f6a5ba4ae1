import type { FeedEvent, UploadUpdate } from './api/types.ts'

/**
 * The page's one connection to the server's event stream: handled webhooks (`feed`) and the
 * progress of this page's uploads (`upload`). EventSource reconnects by itself and sends the last
 * event id, so nothing handled while it was away is missed.
 */
export interface Live {
  readonly clientId: string
  /** Every event seen since the page opened (the server's recent history first), oldest first. */
  readonly events: readonly FeedEvent[]
  readonly connected: boolean
  onFeed(listener: (event: FeedEvent) => void): () => void
  onUpload(listener: (update: UploadUpdate) => void): () => void
  onConnection(listener: (connected: boolean) => void): () => void
}

const KEEP = 1000

export function connectLive(): Live {
  const clientId = crypto.randomUUID()
  const events: FeedEvent[] = []
  const seen = new Set<string>()
  const feed = new Set<(event: FeedEvent) => void>()
  const uploads = new Set<(update: UploadUpdate) => void>()
  const connection = new Set<(connected: boolean) => void>()
  let connected = false

  const setConnected = (value: boolean) => {
    if (value === connected) return
    connected = value
    for (const listener of connection) listener(value)
  }

  const source = new EventSource(`/api/stream?client=${encodeURIComponent(clientId)}`)
  source.addEventListener('ready', () => setConnected(true))
  source.addEventListener('open', () => setConnected(true))
  source.addEventListener('error', () => setConnected(source.readyState === EventSource.OPEN))
  source.addEventListener('feed', (message) => {
    const event = JSON.parse((message as MessageEvent<string>).data) as FeedEvent
    if (seen.has(event.key)) return
    seen.add(event.key)
    events.push(event)
    if (events.length > KEEP) seen.delete(events.shift()!.key)
    for (const listener of feed) listener(event)
  })
  source.addEventListener('upload', (message) => {
    const update = JSON.parse((message as MessageEvent<string>).data) as UploadUpdate
    for (const listener of uploads) listener(update)
  })

  const subscribe =
    <T>(set: Set<T>) =>
    (listener: T) => {
      set.add(listener)
      return () => {
        set.delete(listener)
      }
    }

  return {
    clientId,
    events,
    get connected() {
      return connected
    },
    onFeed: subscribe(feed),
    onUpload: subscribe(uploads),
    onConnection: subscribe(connection),
  }
}
