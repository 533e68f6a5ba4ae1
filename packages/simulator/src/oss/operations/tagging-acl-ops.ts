import type { ObjectAttributes, StoredObject } from '../store/store.ts'
import { ACLS, checkTags } from './object-attributes.ts'
import { childText, OperationError, type OperationRequest, readXml, xmlResponse } from './operation.ts'

/** Owner of every object: the simulator has one account. */
const OWNER = { id: '1000000000000000', name: 'service-sim' }
const MAX_TAGGING_BODY = 64 * 1024

async function existing(r: OperationRequest): Promise<StoredObject> {
  const object = await r.store.head(r.bucket, r.key)
  if (!object) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
  return object
}

async function update(r: OperationRequest, change: (a: ObjectAttributes) => ObjectAttributes): Promise<void> {
  const object = await existing(r)
  const updated = await r.store.setAttributes(r.bucket, r.key, change(object.attributes ?? {}))
  if (!updated) throw new OperationError('NoSuchKey', undefined, { Key: r.key })
}

async function getObjectTagging(r: OperationRequest): Promise<Response> {
  const { attributes } = await existing(r)
  return xmlResponse('Tagging', [
    [
      'TagSet',
      Object.entries(attributes?.tags ?? {}).map(([key, value]) => [
        'Tag',
        [
          ['Key', key],
          ['Value', value],
        ],
      ]),
    ],
  ])
}

/** `<Tagging><TagSet><Tag><Key/><Value/></Tag>...</TagSet></Tagging>` replaces every tag. */
async function putObjectTagging(r: OperationRequest): Promise<Response> {
  const root = await readXml(r, MAX_TAGGING_BODY)
  const set = root.children.find((c) => c.name === 'TagSet')
  if (root.name !== 'Tagging' || !set) throw new OperationError('MalformedXML')
  const tags: Record<string, string> = {}
  for (const tag of set.children) {
    const key = childText(tag, 'Key')
    if (tag.name !== 'Tag' || key === undefined) throw new OperationError('MalformedXML')
    if (key in tags) throw new OperationError('InvalidTag', `Tag key ${key} is given twice.`)
    tags[key] = childText(tag, 'Value') ?? ''
  }
  checkTags(tags)
  await update(r, ({ tags: _, ...rest }) => (Object.keys(tags).length > 0 ? { ...rest, tags } : rest))
  return new Response(null, { status: 200 })
}

async function deleteObjectTagging(r: OperationRequest): Promise<Response> {
  await update(r, ({ tags: _, ...rest }) => rest)
  return new Response(null, { status: 204 })
}

async function getObjectAcl(r: OperationRequest): Promise<Response> {
  const { attributes } = await existing(r)
  return xmlResponse('AccessControlPolicy', [
    [
      'Owner',
      [
        ['ID', OWNER.id],
        ['DisplayName', OWNER.name],
      ],
    ],
    ['AccessControlList', [['Grant', attributes?.acl ?? 'default']]],
  ])
}

async function putObjectAcl(r: OperationRequest): Promise<Response> {
  const acl = r.headers.get('x-oss-object-acl') ?? ''
  if (!ACLS.includes(acl))
    throw new OperationError('InvalidArgument', `x-oss-object-acl ${acl} is not valid.`, {
      ArgumentName: 'x-oss-object-acl',
      ArgumentValue: acl,
    })
  await update(r, ({ acl: _, ...rest }) => (acl === 'default' ? rest : { ...rest, acl }))
  return new Response(null, { status: 200 })
}

export const TAGGING_ACL_OPERATIONS = {
  GetObjectTagging: getObjectTagging,
  PutObjectTagging: putObjectTagging,
  DeleteObjectTagging: deleteObjectTagging,
  GetObjectAcl: getObjectAcl,
  PutObjectAcl: putObjectAcl,
}
