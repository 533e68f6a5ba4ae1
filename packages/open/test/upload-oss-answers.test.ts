import type { UploadCredential } from '@service-sdk/core'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { bytesBody } from '../src/upload/node/bytes-body.ts'
import { createAgents, createNodeHttp } from '../src/upload/node/http.ts'
import { nodeSigning } from '../src/upload/node/signing.ts'
import { credentialAccess } from '../src/upload/oss/access.ts'
import { checkedOptions, OssClient, ossConnection } from '../src/upload/oss/connection.ts'
import { hmacSha1 } from '../src/upload/oss/hmac.ts'
import { objectSigner, type SignedRequest } from '../src/upload/oss/request.ts'
import type { OssHttp } from '../src/upload/oss/types.ts'
import { recordingClient } from './upload/helpers.ts'
import { type Answer, bothWays, context } from './upload/oracle.ts'

// The answers of the simulator's object store, recorded, then read by ali-oss and by the SDK's
// own OSS layer (src/upload/oss): both must make the same of each (values and failures).

let sim: RunningSimulator
let credential: UploadCredential

beforeAll(async () => {
  sim = await startSimulator()
  credential = await recordingClient(sim).open.credentials()
})
afterAll(async () => {
  await sim.stop()
})

/** The platform's HTTP layer, recording every answer. */
function recordingHttp() {
  const inner = createNodeHttp(createAgents())
  const answers: Answer[] = []
  const http: OssHttp = {
    async request(url, params) {
      const response = await inner.request(url, params)
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
      answers.push({ status: response.status, headers, body: Buffer.from(response.data).toString('utf8') })
      return response
    },
  }
  return { http, answers }
}

/** Replays `answers` in order, from the first again once all were given (each way gets them all). */
const replay = (answers: readonly Answer[]) => {
  let next = 0
  return () => {
    const answer = answers[next] as Answer
    next = (next + 1) % answers.length
    return answer
  }
}

test("the simulator's answers, read without ali-oss, say what ali-oss reads in them", async () => {
  const { http, answers } = recordingHttp()
  const live = new OssClient(ossConnection(credentialAccess(credential), http, nodeSigning), context())
  const key = `${credential.dir}answers/a <b> & "c".bin`
  const copy = () => ({ ...credential })
  const checked: string[] = []
  /** Runs `step` live, then replays its answers to both ways. */
  const step = async (name: string, run: (client: OssClient) => Promise<unknown>) => {
    answers.length = 0
    await run(live).catch(() => {})
    const recorded = [...answers]
    const { aliOss, signed } = await bothWays(copy, replay(recorded), run)
    expect(signed.result, name).toEqual(aliOss.result)
    checked.push(`${name}: ${recorded.map((a) => a.status).join(',')}`)
    return signed.result
  }

  const initiated = await step('InitiateMultipartUpload', (c) => c.initiate(key))
  const uploadId = 'value' in initiated ? (initiated.value as string) : ''
  const other = await live.initiate(key)
  const etags: string[] = []
  for (const n of [1, 2, 3]) {
    // Parts but the last of at least 100 KiB, as OSS requires.
    const bytes = Buffer.alloc(n < 3 ? 100 * 1024 : 5, n)
    const body = { size: bytes.length, stream: bytesBody([bytes]), checksum: () => 0n }
    const sent = await step(`UploadPart ${n}`, (c) => c.uploadPart(key, uploadId, n, body))
    etags.push('value' in sent ? (sent.value as string) : '')
  }
  await step('ListParts, one page', (c) => c.listParts(key, uploadId))

  // ListParts in pages of two: the first truncated, then the rest (recorded with max-parts=2).
  const options = checkedOptions(credential)
  if (typeof options === 'string') throw new Error(options)
  const signer = objectSigner(options, { hmac: hmacSha1(options.accessKeySecret), userAgent: 'test' })
  const pages: Answer[] = []
  for (const marker of [undefined, '2']) {
    const query: Record<string, string | number> = { 'max-parts': 2 }
    if (marker) query['part-number-marker'] = marker
    const { url, headers } = signer.sign({
      method: 'GET',
      key,
      subresource: { uploadId },
      query,
    }) as SignedRequest
    const response = await http.request(url, { method: 'GET', headers, ctx: context() })
    pages.push({ status: response.status, body: Buffer.from(response.data).toString('utf8') })
  }
  expect(pages[0]?.body).toContain('<IsTruncated>true</IsTruncated>')
  const paged = await bothWays(copy, replay(pages), (c) => c.listParts(key, uploadId))
  expect(paged.signed.result).toEqual(paged.aliOss.result)
  expect(paged.signed.result).toMatchObject({ value: [{ number: 1 }, { number: 2 }, { number: 3 }] })

  await step('ListMultipartUploads', (c) => c.listUploads(`${credential.dir}answers/`))
  await step('CompleteMultipartUpload', (c) =>
    c.complete(
      key,
      uploadId,
      etags.map((etag, i) => ({ number: i + 1, etag, size: 0 })),
    ),
  )
  const listed = await live.listParts(key, other)
  expect(listed).toEqual([])
  await step('CompleteMultipartUpload, bad ETags', (c) =>
    c.complete(key, other, [{ number: 1, etag: '"nope"', size: 5 }]),
  )
  await step('HeadObject', (c) => c.size(key))
  await step('AbortMultipartUpload', (c) => c.abort(key, other))
  await step('AbortMultipartUpload, no such upload', (c) => c.abort(key, other))
  await step('ListParts, no such upload', (c) => c.listParts(key, other))
  await step('DeleteObject', (c) => c.remove(key))
  await step('HeadObject, no such object', (c) => c.size(key))
  expect(checked).toEqual([
    'InitiateMultipartUpload: 200',
    'UploadPart 1: 200',
    'UploadPart 2: 200',
    'UploadPart 3: 200',
    'ListParts, one page: 200',
    'ListMultipartUploads: 200',
    'CompleteMultipartUpload: 200',
    'CompleteMultipartUpload, bad ETags: 400',
    'HeadObject: 200',
    'AbortMultipartUpload: 204',
    'AbortMultipartUpload, no such upload: 404',
    'ListParts, no such upload: 404',
    'DeleteObject: 204',
    'HeadObject, no such object: 404',
  ])
})
