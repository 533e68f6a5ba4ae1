/**
 * The baseline's requests (raw.ts): one PUT with node:http and a hand-made OSS V1
 * signature, and a pool that runs jobs `parallel` at a time.
 */
import { createHmac } from 'node:crypto'
import http from 'node:http'
import { pipeline } from 'node:stream/promises'
import type { StsCredential } from '../lib/sts.ts'

/** PUTs `size` bytes from `body()` as `key`; resolves on a 200, with the CRC-64 the store reports. */
export function rawPut(
  sts: StsCredential,
  agent: http.Agent,
  key: string,
  size: number,
  body: () => NodeJS.ReadableStream | Buffer,
): Promise<string | undefined> {
  const endpoint = new URL(sts.endPoint)
  const date = new Date().toUTCString()
  const type = 'application/octet-stream'
  const toSign = `PUT\n\n${type}\n${date}\nx-oss-date:${date}\nx-oss-security-token:${sts.securityToken}\n/${sts.bucket}/${key}`
  const signature = createHmac('sha1', sts.accessKeySecret).update(toSign).digest('base64')
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: endpoint.hostname,
        port: endpoint.port,
        method: 'PUT',
        path: `/${encodeURIComponent(key).replace(/%2F/g, '/')}`,
        agent,
        headers: {
          host: `${sts.bucket}.oss-cn-hangzhou.aliyuncs.com`,
          'content-type': type,
          'content-length': size,
          'x-oss-date': date,
          'x-oss-security-token': sts.securityToken,
          authorization: `OSS ${sts.accessKeyId}:${signature}`,
        },
      },
      (response) => {
        response.resume()
        response.on('end', () => {
          const crc = response.headers['x-oss-hash-crc64ecma']
          if (response.statusCode === 200) resolve(typeof crc === 'string' ? crc : undefined)
          else reject(new Error(`PUT ${key}: ${response.statusCode}`))
        })
      },
    )
    request.on('error', reject)
    const made = body()
    if (Buffer.isBuffer(made)) request.end(made)
    else pipeline(made, request).catch(reject)
  })
}

/** `jobs` run `parallel` at a time. */
export async function pool(jobs: Array<() => Promise<void>>, parallel: number): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < jobs.length) await (jobs[next++] as () => Promise<void>)()
    }),
  )
}
