import { Hono } from 'hono'
import type { SimContext } from '../model/context.ts'
import { BUCKET } from '../model/state.ts'

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
}

/** A saved asset's permanent accessUrl: GET /files/:id/:name streams the stored bytes. */
export function fileRoutes(sim: SimContext): Hono {
  const app = new Hono()
  app.get('/:id/:name', async (c) => {
    const material = sim.state.material(c.req.param('id'))
    if (!material || material.deleted === 'PERMANENT') return c.text('Not found', 404)
    const found = await sim.store.get(BUCKET, material.key)
    if (!found) return c.text('Not found', 404)
    return new Response(found.body, {
      headers: {
        'content-type': TYPES[material.extension.toLowerCase()] ?? 'application/octet-stream',
        'content-length': String(found.object.size),
        'cache-control': 'public, max-age=31536000, immutable',
        'access-control-allow-origin': '*',
      },
    })
  })
  return app
}
