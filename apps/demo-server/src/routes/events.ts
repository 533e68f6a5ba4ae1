import type { EventsResponse } from '@service-sdk/demo-web/api'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { EventFeed } from '../feed.ts'
import type { UploadManager } from '../uploads.ts'

/**
 * What the webhook receiver handled, under `/api`: `GET /events` (the recent ones), then
 * `GET /stream` (server-sent events: the feed, this page's upload progress, keep-alive comments).
 */
export function eventRoutes(feed: EventFeed, uploads: UploadManager, keepAliveMs: number): Hono {
  const app = new Hono()
  app.get('/events', (c) => c.json({ events: feed.recent() } satisfies EventsResponse))
  app.get('/stream', (c) => {
    const clientId = c.req.query('client') ?? ''
    const lastId = Number(c.req.header('last-event-id') ?? Number.NaN)
    return streamSSE(c, async (stream) => {
      const send = (event: string, data: unknown, id?: number) => {
        if (stream.closed || stream.aborted) return
        stream
          .writeSSE({ event, data: JSON.stringify(data), ...(id === undefined ? {} : { id: String(id) }) })
          .catch(() => {})
      }
      const stopFeed = feed.subscribe((e) => send('feed', e, e.seq))
      const stopUploads = uploads.onUpdate((owner, update) => {
        if (owner === clientId) send('upload', update)
      })
      for (const e of feed.recent(Number.isSafeInteger(lastId) ? lastId : undefined)) send('feed', e, e.seq)
      send('ready', { at: Date.now() })
      const ping = setInterval(() => {
        stream.write(': keep-alive\n\n').catch(() => {})
      }, keepAliveMs)
      await new Promise<void>((resolve) => {
        const stopClose = feed.onClose(resolve)
        stream.onAbort(() => {
          stopClose()
          resolve()
        })
      })
      clearInterval(ping)
      stopFeed()
      stopUploads()
    })
  })
  return app
}
