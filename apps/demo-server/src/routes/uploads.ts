import type { UploadResponse } from '@service-sdk/demo-web/api'
import { Hono } from 'hono'
import { DemoError } from '../errors.ts'
import type { Log } from '../log.ts'
import { emptyFile, type UploadManager } from '../uploads.ts'
import { ID } from './request.ts'

const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/

/**
 * Upload flow 2 under `/api/uploads`: the page streams a file here and it goes on to the storage
 * with `open.upload`; the page pauses, resumes and cancels its own uploads (its client id).
 */
export function uploadRoutes(
  uploads: UploadManager,
  watchFolder: (folderId: string) => Promise<void>,
  log: Log,
): Hono {
  const app = new Hono()
  app.post('/', async (c) => {
    const id = c.req.header('x-upload-id') ?? ''
    const clientId = c.req.header('x-demo-client') ?? ''
    if (!CLIENT_ID.test(id) || !CLIENT_ID.test(clientId)) {
      throw new DemoError(
        400,
        'invalid_input',
        'X-Upload-Id and X-Demo-Client headers (8 to 64 of A-Z a-z 0-9 _ -) are required.',
      )
    }
    const target = uploadTarget(c.req.query())
    const length = c.req.header('content-length')
    const declaredSize = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined
    const stream = c.req.raw.body
    if (!stream || declaredSize === 0) throw emptyFile()
    // So that the folder's content callback for this very upload reaches the events page. The
    // root folder (0, or none) is a folder like any other: its subscribers are called back too.
    const watched = target.folderId ?? '0'
    await watchFolder(watched).catch((error) => log.warn(`could not watch folder ${watched}`, error))
    const asset = await uploads.run({
      id,
      clientId,
      body: stream,
      declaredSize,
      ...target,
      signal: c.req.raw.signal,
    })
    log.info(`upload: saved asset ${asset.id} (${asset.size} bytes)`)
    return c.json({ asset } satisfies UploadResponse, 201)
  })
  for (const action of ['pause', 'resume'] as const) {
    app.post(`/:id/${action}`, (c) => {
      const clientId = c.req.header('x-demo-client') ?? ''
      if (!uploads.pause(c.req.param('id'), clientId, action === 'pause')) {
        throw new DemoError(404, 'not_found', 'No running upload of this page has that id.')
      }
      return c.body(null, 204)
    })
  }
  app.delete('/:id', (c) => {
    const clientId = c.req.header('x-demo-client') ?? ''
    if (!uploads.cancel(c.req.param('id'), clientId)) {
      throw new DemoError(404, 'not_found', 'No running upload of this page has that id.')
    }
    return c.body(null, 204)
  })
  return app
}

/** The file's name and where it goes, from the query; every bad field named at once. */
function uploadTarget(query: Record<string, string>): {
  fileName: string
  folderId: string | undefined
  orgId: string | undefined
} {
  const fileName = query.name?.trim() ?? ''
  const folderId = query.folderId || undefined
  const orgId = query.orgId || undefined
  const issues = [
    ...(fileName === '' || fileName.length > 255
      ? [{ field: 'name', message: 'a file name of 1 to 255 characters is required' }]
      : []),
    ...(folderId !== undefined && !ID.test(folderId)
      ? [{ field: 'folderId', message: 'must be decimal digits' }]
      : []),
    ...(orgId !== undefined && !ID.test(orgId)
      ? [{ field: 'orgId', message: 'must be decimal digits' }]
      : []),
  ]
  if (issues.length > 0) throw new DemoError(400, 'invalid_input', 'The upload request is not valid.', issues)
  return { fileName, folderId, orgId }
}
