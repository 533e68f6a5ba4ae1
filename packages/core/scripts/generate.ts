/**
 * Generates src/generated/ from spec/openapi.yaml:
 *   openapi.ts  TypeScript types (openapi-typescript), every id typed as a decimal `string`;
 *   ids.ts      ID_KEYS, the property names whose values are ids, for the lossless JSON parser.
 *
 *   node scripts/generate.ts           write the files
 *   node scripts/generate.ts --check   exit 1 if the committed files differ from a fresh run
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import openapiTS, {
  astToString,
  NULL,
  NUMBER,
  type OpenAPI3,
  type SchemaObject,
  STRING,
  tsIntersection,
  tsLiteral,
  tsUnion,
} from 'openapi-typescript'
import ts from 'typescript'
import { parse } from 'yaml'

const SPEC = new URL('../../../spec/openapi.yaml', import.meta.url)
const OUT = new URL('../src/generated/', import.meta.url)
const HEADER = '// generated from spec/openapi.yaml by scripts/generate.ts; do not edit\n'

const ID_REFS = new Set(['#/components/schemas/Id', '#/components/schemas/IdString'])

class SpecError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Node = { [key: string]: unknown }

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * YAML integers beyond 2^53 (19-digit ids in examples) would be rounded by a plain parse, and the
 * rounded digits would then appear in the generated doc comments. Parse them as bigint and keep
 * them as digit strings: the form the SDK gives ids anyway.
 */
function exactNumbers(value: unknown): Json {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  if (Array.isArray(value)) return value.map(exactNumbers)
  if (isNode(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, exactNumbers(v)]))
  return value as Json
}

// ---------------------------------------------------------------------------- openapi.ts

async function generateTypes(spec: Json): Promise<string> {
  const ast = await openapiTS(spec as unknown as OpenAPI3, {
    silent: true,
    // Properties with a `default` stay optional: the defaults are applied by the service.
    defaultNonNullable: false,
    // Free-form objects (custom metadata) are `Record<string, unknown>`, not `Record<string, never>`.
    emptyObjectsUnknown: true,
    transform(schema: SchemaObject) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type]
      const nullable = (node: ts.TypeNode) => (types.includes('null') ? tsUnion([node, NULL]) : node)
      const open = (schema as { 'x-extensible-enum'?: unknown })['x-extensible-enum']
      if (Array.isArray(open))
        return nullable(extensibleEnum(open, types.includes('string') ? STRING : NUMBER))
      // The one id representation: a string of decimal digits (see components.schemas.Id).
      if (schema.format !== 'int64') return undefined
      return nullable(STRING)
    },
  })
  return `${HEADER}\n${astToString(ast)}`
}

/**
 * `x-extensible-enum` (an open enum: the known values, though the service may send others): the
 * known literals stay visible to editors and narrowing, and any other value is accepted, as
 * `'A' | 'B' | (string & {})` (a plain `| string` would absorb the literals).
 */
function extensibleEnum(values: unknown[], base: ts.TypeNode): ts.TypeNode {
  const other = tsIntersection([base, ts.factory.createTypeLiteralNode([])])
  return tsUnion([...values.map((value) => tsLiteral(value)), other])
}

/** An example value as the SDK gives it: ids (and arrays or maps of ids) as decimal strings. */
function idExample(value: Json): Json {
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.map(idExample)
  if (isNode(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, idExample(v as Json)]))
  return value
}

function sdkExample(value: Json, idKeys: ReadonlySet<string>): Json {
  if (Array.isArray(value)) return value.map((v) => sdkExample(v, idKeys))
  if (!isNode(value)) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      idKeys.has(k) ? idExample(v as Json) : sdkExample(v as Json, idKeys),
    ]),
  )
}

/**
 * The generated doc comments repeat the spec's examples; show them in the SDK's representation
 * (ids as strings), which is what the generated types say, rather than the wire's integers.
 */
function withSdkExamples(node: Json, idKeys: ReadonlySet<string>): Json {
  if (Array.isArray(node)) return node.map((n) => withSdkExamples(n, idKeys))
  if (!isNode(node)) return node
  const convert = holdsIds(node) || holdsIds(node.schema) ? idExample : (v: Json) => sdkExample(v, idKeys)
  const out: { [key: string]: Json } = {}
  for (const [key, value] of Object.entries(node) as Array<[string, Json]>) {
    if (key === 'properties' && isNode(value)) {
      // Keys here are property names, not keywords: a property may be called `example`.
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, withSdkExamples(v as Json, idKeys)]),
      )
    } else if (key === 'example') {
      out[key] = convert(value)
    } else if (key === 'examples' && Array.isArray(value)) {
      out[key] = value.map(convert)
    } else if (key === 'examples' && isNode(value)) {
      // A map of Example Objects (parameters, media types).
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, ex]) => [
          name,
          isNode(ex) && 'value' in ex
            ? { ...(ex as { [key: string]: Json }), value: convert(ex.value as Json) }
            : (ex as Json),
        ]),
      )
    } else {
      out[key] = withSdkExamples(value, idKeys)
    }
  }
  return out
}

// ---------------------------------------------------------------------------- ids.ts

/** Whether a property schema holds ids: an id, a nullable id, an array of ids, or a map of ids. */
function holdsIds(schema: unknown): boolean {
  if (!isNode(schema)) return false
  if (typeof schema.$ref === 'string') return ID_REFS.has(schema.$ref)
  if (schema.format === 'int64') return true
  for (const key of ['oneOf', 'anyOf'] as const) {
    const parts = schema[key]
    if (Array.isArray(parts)) {
      const nonNull = parts.filter((p) => !(isNode(p) && p.type === 'null'))
      return nonNull.length > 0 && nonNull.every(holdsIds)
    }
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (types.includes('array')) return holdsIds(schema.items)
  if (types.includes('object') && isNode(schema.additionalProperties)) {
    return !isNode(schema.properties) && holdsIds(schema.additionalProperties)
  }
  return false
}

/** Every property name in the spec, with the places where it holds ids and where it does not. */
function collectProperties(spec: Json): Map<string, { ids: string[]; other: string[] }> {
  const seen = new Map<string, { ids: string[]; other: string[] }>()
  const visit = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        visit(item, `${path}/${i}`)
      })
      return
    }
    if (!isNode(node)) return
    const properties = node.properties
    if (isNode(properties) && (node.type === 'object' || node.type === undefined)) {
      for (const [name, schema] of Object.entries(properties)) {
        const entry = seen.get(name) ?? { ids: [], other: [] }
        entry[holdsIds(schema) ? 'ids' : 'other'].push(`${path}/properties/${name}`)
        seen.set(name, entry)
      }
    }
    for (const [key, value] of Object.entries(node)) {
      // Example values are data, not schemas: a key named `properties` there means nothing.
      if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue
      visit(value, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    }
  }
  visit(spec, '#')
  return seen
}

function idKeysOf(spec: Json): string[] {
  const keys: string[] = []
  const conflicts: string[] = []
  for (const [name, { ids, other }] of collectProperties(spec)) {
    if (ids.length === 0) continue
    if (other.length > 0) {
      conflicts.push(
        `  ${name}: an id at ${ids.join(', ')}\n  ${' '.repeat(name.length)}  not an id at ${other.join(', ')}`,
      )
    }
    keys.push(name)
  }
  if (conflicts.length > 0) {
    throw new SpecError(
      'property names must be ids everywhere or nowhere (the lossless parser converts values by key):\n' +
        conflicts.join('\n'),
    )
  }
  return keys.sort()
}

/**
 * The id keys whose values travel as JSON integers (`Id`); the rest (`IdString`, e.g. a callback's
 * `userId`) are strings on the wire. A key may not be both.
 */
function integerIdKeysOf(spec: Json, idKeys: readonly string[]): string[] {
  const kinds = new Map<string, Set<string>>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (!isNode(node)) return
    if (isNode(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties)) {
        if (!idKeys.includes(name)) continue
        const text = JSON.stringify(schema, (_k, v) => (typeof v === 'bigint' ? String(v) : v))
        const set = kinds.get(name) ?? new Set<string>()
        if (text.includes('#/components/schemas/IdString')) set.add('string')
        if (text.includes('#/components/schemas/Id"') || text.includes('int64')) set.add('integer')
        kinds.set(name, set)
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'example' && key !== 'examples' && !key.startsWith('x-')) visit(value)
    }
  }
  visit(spec)
  const both = [...kinds].filter(([, set]) => set.size > 1).map(([name]) => name)
  if (both.length > 0) {
    throw new SpecError(`id keys must be Id (integer) everywhere or IdString everywhere: ${both.join(', ')}`)
  }
  return [...kinds]
    .filter(([, set]) => set.has('integer'))
    .map(([name]) => name)
    .sort()
}

function idKeysModule(keys: readonly string[], integerKeys: readonly string[]): string {
  return [
    HEADER,
    '/**',
    ' * Property names whose values are ids (Id, IdString), arrays of ids, or maps whose values are ids,',
    ' * anywhere in the spec. The lossless JSON parser turns the values at these keys into decimal strings.',
    ' */',
    'export const ID_KEYS: ReadonlySet<string> = new Set([',
    ...keys.map((key) => `  '${key}',`),
    '])',
    '',
    '/** The id keys whose values are JSON integers on the wire (Id, not IdString): the serializer writes them raw. */',
    'export const INTEGER_ID_KEYS: ReadonlySet<string> = new Set([',
    ...integerKeys.map((key) => `  '${key}',`),
    '])',
    '',
  ].join('\n')
}

// ---------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const check = process.argv.includes('--check')
  const spec = exactNumbers(parse(await readFile(SPEC, 'utf8'), { intAsBigInt: true }))
  const idKeys = idKeysOf(spec)
  const files = new Map([
    ['openapi.ts', await generateTypes(withSdkExamples(spec, new Set(idKeys)))],
    ['ids.ts', idKeysModule(idKeys, integerIdKeysOf(spec, idKeys))],
  ])

  if (!check) {
    await mkdir(OUT, { recursive: true })
    for (const [name, text] of files) await writeFile(new URL(name, OUT), text)
    console.log(`generated ${[...files.keys()].map((n) => `src/generated/${n}`).join(', ')}`)
    return 0
  }
  const stale: string[] = []
  for (const [name, text] of files) {
    const current = await readFile(new URL(name, OUT), 'utf8').catch(() => undefined)
    if (current !== text) stale.push(`src/generated/${name}`)
  }
  if (stale.length === 0) return 0
  console.error(`stale: run pnpm generate (out of date with spec/openapi.yaml: ${stale.join(', ')})`)
  return 1
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    const message =
      error instanceof SpecError ? error.message : error instanceof Error ? error.stack : String(error)
    console.error(`generate failed (${fileURLToPath(SPEC)}):\n${message}`)
    process.exitCode = 1
  },
)
