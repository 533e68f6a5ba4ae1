/**
 * Just enough of an open-API client to make the simulator emit events: plain fetch and a V1
 * OSS signature (see docs/service/webhooks.md). It does not use @service-sdk/open on purpose: the receiver's
 * tests must not depend on the client package.
 */
import { createHmac } from 'node:crypto'
import { request } from 'node:http'
import type { RunningSimulator } from '@service-sdk/simulator'

async function openCall<T>(sim: RunningSimulator, path: string, body?: unknown): Promise<T> {
  const { type, value } = sim.credentials.openToken
  const response = await fetch(`${sim.urls.open}/open-api/standard/call/service/${path}`, {
    method: 'POST',
    headers: { authorization: `${type} ${value}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const envelope = (await response.json()) as { code: unknown; message?: string; result: T }
  if (String(envelope.code) !== '0') throw new Error(`${path}: ${envelope.code} ${envelope.message}`)
  return envelope.result
}

export async function subscribe(
  sim: RunningSimulator,
  callbackUrl: string,
  folderIds: string[],
): Promise<void> {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${sim.urls.open}/api/service/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.credentials.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const envelope = (await response.json()) as { code: unknown; message?: string }
    if (String(envelope.code) !== '0') throw new Error(`${path}: ${envelope.code} ${envelope.message}`)
  }
  // Folder ids are beyond 2^53: they go out as raw JSON integers, written by hand.
  await fetch(`${sim.urls.open}/api/service/folder-subscribe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sim.credentials.apiKey}`, 'content-type': 'application/json' },
    body: `{"folderIds":[${folderIds.join(',')}],"callbackUrl":${JSON.stringify(callbackUrl)}}`,
  }).then(async (r) => {
    const envelope = (await r.json()) as { code: unknown; message?: string }
    if (String(envelope.code) !== '0')
      throw new Error(`folder-subscribe: ${envelope.code} ${envelope.message}`)
  })
  await call('material-automation-subscribe', {
    callbackUrl,
    eventTypes: [
      'MATERIAL_INBOUND_COMPLETED',
      'MATERIAL_ADDED_TO_FOLDER',
      'MATERIAL_METADATA_UPDATED',
      'MATERIAL_VERSION_CHANGED',
      'MATERIAL_DELETED',
    ],
  })
}

interface Credential {
  endPoint: string
  bucket: string
  dir: string
  accessKeyId: string
  accessKeySecret: string
  securityToken: string
}

function put(credential: Credential, key: string, data: Buffer): Promise<void> {
  const date = new Date().toUTCString()
  const type = 'application/octet-stream'
  const toSign = `PUT\n\n${type}\n${date}\nx-oss-date:${date}\nx-oss-security-token:${credential.securityToken}\n/${credential.bucket}/${key}`
  const signature = createHmac('sha1', credential.accessKeySecret).update(toSign).digest('base64')
  // endPoint is a host (docs/service/webhooks.md), possibly with a scheme.
  const { hostname: host, port } = new URL(
    /^https?:\/\//.test(credential.endPoint) ? credential.endPoint : `http://${credential.endPoint}`,
  )
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port: Number(port),
        method: 'PUT',
        path: `/${key.split('/').map(encodeURIComponent).join('/')}`,
        headers: {
          host: `${credential.bucket}.oss-cn-hangzhou.aliyuncs.com`,
          'content-type': type,
          'content-length': data.length,
          'x-oss-date': date,
          'x-oss-security-token': credential.securityToken,
          authorization: `OSS ${credential.accessKeyId}:${signature}`,
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${res.statusCode}: ${text}`)),
        )
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

/** Upload files and save them as assets in a team folder: emits a folder callback and asset events. */
export async function uploadAssets(
  sim: RunningSimulator,
  options: { orgId: string; folderId: string; names: string[] },
): Promise<string[]> {
  const credential = await openCall<Credential>(sim, 'sts-tmp')
  const materials: string[] = []
  for (const name of options.names) {
    const key = `${credential.dir}${name}.png`
    await put(credential, key, Buffer.from(`content of ${name}`))
    materials.push(
      `{"key":${JSON.stringify(key)},"folderId":${options.folderId},"name":${JSON.stringify(name)},"extension":"png","size":${name.length + 11}}`,
    )
  }
  const { type, value } = sim.credentials.openToken
  const response = await fetch(`${sim.urls.open}/open-api/standard/call/service/material-save`, {
    method: 'POST',
    headers: { authorization: `${type} ${value}`, 'content-type': 'application/json' },
    body: `{"orgId":${options.orgId},"materials":[${materials.join(',')}]}`,
  })
  const text = await response.text()
  const saved = /"materials":\[(.*)\]/.exec(text)?.[1] ?? ''
  const ids = [...saved.matchAll(/"id":"?(\d+)"?/g)].map((m) => m[1] as string)
  if (ids.length !== options.names.length) throw new Error(`material-save: ${text}`)
  return ids
}
