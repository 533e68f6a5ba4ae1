import { createRequire } from 'node:module'
import { type RunningSimulator, startSimulator } from '@service-sdk/simulator'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createOpenClient, type UploadedAsset } from '../src/index.ts'
import { createUploadProxy, type UploadProxy } from '../src/proxy/index.ts'
import { servedHash, sha256 } from './upload/helpers.ts'

// Bob, signed in to the same application as Alice, attacks her objects with everything the upload
// proxy gives a browser: his own directory, URLs signed for his own keys, the answers of the
// object store. He knows Alice's keys and her upload id (the worst case: they leaked). None of
// it reaches her objects: the proxy signs nothing of hers, what it signs for him cannot be turned
// into a request on hers, and an upload id is good at the store only with the key it was started
// for. Alice's saved object and her upload in progress are checked intact at the end.

const BASE = 'http://app.test/api/upload'
const SESSIONS: Record<string, string> = { 'alice-session': 'alice', 'bob-session': 'bob' }

let sim: RunningSimulator
let proxy: UploadProxy
let saved: UploadedAsset
let bucket: string
let savedBytes: Uint8Array<ArrayBuffer>
/** Alice's multipart upload in progress: one part stored. */
let inProgress: { key: string; uploadId: string; part: { number: number; etag: string } }

interface Signed {
  url: string
  headers: Record<string, string>
}

async function sign(session: string, requests: object[]) {
  const answer = await proxy(
    new Request(`${BASE}/oss/sign`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      body: JSON.stringify({ requests }),
    }),
  )
  const body = await answer.json()
  return {
    status: answer.status,
    code: body.code as string,
    result: body.result as { dir: string; signed: Signed[] },
  }
}

/** Sends a signed request as a browser would (fetch), with whatever a caller changes in it. */
async function send(
  signed: Signed,
  init: { method: string; body?: BodyInit; headers?: Record<string, string> },
) {
  const response = await fetch(signed.url, {
    method: init.method,
    headers: { ...signed.headers, ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  })
  const text = await response.text()
  return { status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(text)?.[1], text }
}

const aliceStill = async () => {
  expect(await servedHash(saved.accessUrl)).toBe(sha256(savedBytes))
  const { result } = await sign('alice-session', [
    { op: 'ListParts', key: inProgress.key, uploadId: inProgress.uploadId },
  ])
  const listed = await send(result.signed[0] as Signed, { method: 'GET' })
  expect(listed.status).toBe(200)
  expect(listed.text).toContain(`<ETag>${inProgress.part.etag.replaceAll('"', '&quot;')}</ETag>`)
}

beforeAll(async () => {
  sim = await startSimulator()
  proxy = createUploadProxy({
    openUrl: sim.urls.open,
    token: sim.credentials.openToken,
    authorize: (request) => {
      const id = SESSIONS[request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '']
      return id ? { id } : false
    },
  })
  const alice = createOpenClient({
    proxyUrl: BASE,
    headers: { authorization: 'Bearer alice-session' },
    fetch: async (input, init) => proxy(new Request(input, init)),
  })
  bucket = (
    await createOpenClient({ openUrl: sim.urls.open, token: sim.credentials.openToken }).credentials()
  ).bucket
  savedBytes = new Uint8Array(150 * 1024).map((_, i) => (i * 13) % 251)
  saved = await alice.upload(new Blob([savedBytes]), { name: 'alice-private', extension: 'bin' }).done()
  // Alice starts a multipart upload and stores one part: through the proxy, as her browser does.
  const key = `${(await sign('alice-session', [])).result.dir}in-progress/video.mp4`
  const init = (await sign('alice-session', [{ op: 'InitiateMultipartUpload', key }])).result
    .signed[0] as Signed
  const initiated = await send(init, { method: 'POST' })
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(initiated.text)?.[1] as string
  const partUrl = (await sign('alice-session', [{ op: 'UploadPart', key, uploadId, partNumber: 1 }])).result
    .signed[0] as Signed
  const part = await fetch(partUrl.url, {
    method: 'PUT',
    headers: partUrl.headers,
    body: new Uint8Array(1024),
  })
  expect(part.status).toBe(200)
  inProgress = { key, uploadId, part: { number: 1, etag: part.headers.get('etag') as string } }
})

afterAll(async () => {
  await sim?.stop()
})

describe("Bob cannot reach Alice's objects through the upload proxy", () => {
  test('the proxy signs nothing for her keys: no overwrite, abort, listing of parts, head or completion (403)', async () => {
    const { key, uploadId } = inProgress
    const attempts = [
      { op: 'PutObject', key: saved.key },
      { op: 'InitiateMultipartUpload', key: saved.key },
      { op: 'UploadPart', key, uploadId, partNumber: 1 },
      { op: 'CompleteMultipartUpload', key, uploadId },
      { op: 'AbortMultipartUpload', key, uploadId },
      { op: 'ListParts', key, uploadId },
      { op: 'HeadObject', key: saved.key },
    ]
    for (const attempt of attempts) {
      const answer = await sign('bob-session', [attempt])
      expect(answer, attempt.op).toMatchObject({ status: 403, code: 'outside_upload_dir', result: undefined })
    }
    // Nor any request that is not an upload's, even for his own keys.
    const bobKey = `${(await sign('bob-session', [])).result.dir}x.bin`
    for (const op of ['DeleteObject', 'GetObject', 'ListMultipartUploads', 'CopyObject']) {
      expect(await sign('bob-session', [{ op, key: bobKey }]), op).toMatchObject({
        status: 400,
        result: undefined,
      })
    }
    await aliceStill()
  })

  test('what is signed for his keys cannot be turned on hers: another path, method, listing or copy is refused by the store', async () => {
    const bobDir = (await sign('bob-session', [])).result.dir
    const [put, head] = (
      await sign('bob-session', [
        { op: 'PutObject', key: `${bobDir}mine.bin` },
        { op: 'HeadObject', key: `${bobDir}mine.bin` },
      ])
    ).result.signed as [Signed, Signed]
    const onAlice = (signed: Signed, path: string) => {
      const url = new URL(signed.url)
      url.pathname = path
      return { ...signed, url: url.href }
    }
    const refused = [
      // Overwrite her saved object with his PUT URL.
      await send(onAlice(put, `/${saved.key}`), { method: 'PUT', body: 'bob was here' }),
      // Read or delete it with his URLs.
      await send(onAlice(head, `/${saved.key}`), { method: 'GET' }),
      await send(onAlice(head, `/${saved.key}`), { method: 'DELETE' }),
      await send(head, { method: 'GET' }),
      await send(put, { method: 'DELETE' }),
      // List the bucket, or the uploads in progress.
      await send(onAlice(head, '/'), { method: 'GET' }),
      await send({ ...head, url: `${head.url}&uploads=&prefix=` }, { method: 'GET' }),
      // Copy her object into his key, and save that as his asset.
      await send(put, { method: 'PUT', headers: { 'x-oss-copy-source': `/${bucket}/${saved.key}` } }),
    ]
    for (const answer of refused) expect(answer.status, answer.text).toBe(403)
    expect(refused.map((r) => r.code)).toEqual(refused.map(() => 'SignatureDoesNotMatch'))
    const copied = await fetch(`${new URL(put.url).origin}/${bobDir}mine.bin`, { method: 'HEAD' })
    expect(copied.status).not.toBe(200)
    await aliceStill()
  })

  test('her upload id with his own key: the store knows no such upload (no abort, listing, completion or part)', async () => {
    const key = `${(await sign('bob-session', [])).result.dir}hijack.mp4`
    const { uploadId } = inProgress
    const { signed } = (
      await sign('bob-session', [
        { op: 'AbortMultipartUpload', key, uploadId },
        { op: 'ListParts', key, uploadId },
        { op: 'CompleteMultipartUpload', key, uploadId },
        { op: 'UploadPart', key, uploadId, partNumber: 2 },
      ])
    ).result
    const [abort, list, complete, part] = signed as [Signed, Signed, Signed, Signed]
    const xml = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${inProgress.part.etag}</ETag></Part></CompleteMultipartUpload>`
    const answers = [
      await send(abort, { method: 'DELETE' }),
      await send(list, { method: 'GET' }),
      await send(complete, { method: 'POST', body: xml }),
      await send(part, { method: 'PUT', body: new Uint8Array(10) }),
    ]
    expect(answers.map((a) => [a.status, a.code])).toEqual(answers.map(() => [404, 'NoSuchUpload']))
    await aliceStill()
  })

  test('the STS key id and token in his signed URLs are no credential: signing with them is refused', async () => {
    const { signed } = (
      await sign('bob-session', [{ op: 'HeadObject', key: saved.key.replace(/u[\w-]{22}/, 'x') }])
    ).result ?? { signed: [] }
    expect(signed).toEqual([]) // not even a URL for a key outside his directory
    const bobsOwn = (
      await sign('bob-session', [{ op: 'HeadObject', key: `${(await sign('bob-session', [])).result.dir}a` }])
    ).result.signed[0] as Signed
    const query = new URL(bobsOwn.url).searchParams
    const AliOss = createRequire(import.meta.url)('ali-oss') as new (
      options: object,
    ) => { delete(key: string): Promise<unknown> }
    const forged = new AliOss({
      endpoint: new URL(bobsOwn.url).origin,
      bucket: bucket,
      accessKeyId: query.get('OSSAccessKeyId'),
      accessKeySecret: 'a guessed secret',
      stsToken: query.get('security-token'),
    })
    await expect(forged.delete(saved.key)).rejects.toMatchObject({
      status: 403,
      code: 'SignatureDoesNotMatch',
    })
    await aliceStill()
  })

  test('a signed URL expires: the store refuses it after its minutes', async () => {
    const short = createUploadProxy({
      openUrl: sim.urls.open,
      token: sim.credentials.openToken,
      signedUrlTtlSeconds: 1,
      authorize: () => ({ id: 'bob' }),
    })
    const ask = async (requests: object[]) =>
      (
        await (
          await short(
            new Request(`${BASE}/oss/sign`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ requests }),
            }),
          )
        ).json()
      ).result
    const { dir } = await ask([])
    const [put] = (await ask([{ op: 'PutObject', key: `${dir}late.bin` }])).signed as [Signed]
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    const late = await send(put, { method: 'PUT', body: 'late' })
    expect([late.status, late.code]).toEqual([403, 'AccessDenied'])
  })
})
