import { type Tolerance, tolerance } from '@service-sdk/core/schemas'
import {
  array,
  boolean,
  decline,
  eventTime,
  type FieldReader,
  firstOf,
  id,
  isPlainRecord,
  literal,
  looseObject,
  MISMATCH,
  nullable,
  number,
  optional,
  type Reader,
  record,
  required,
  string,
  unknown,
} from './readers.ts'

// Readers generated from core's zod schemas, so that the webhook shapes have one source: the
// schema's definition (`_zod.def`), and for the parts built from functions, what core recorded of
// them in its `tolerance` registry. A part no reader is made for declines (zod reads the body);
// compile.test.ts holds every reader to its schema on generated bodies and checks that none of
// the webhook schemas has such a part.

interface Def {
  type: string
  [field: string]: unknown
}
interface Schema {
  _zod: { def: Def }
}

const SCALARS: Record<NonNullable<Tolerance['scalar']>, Reader> = { id, eventTime }
/** Types whose reader declines exactly what the schema refuses (so a union of them can try each). */
const EXACT = new Set(['string', 'number', 'boolean', 'literal'])

export interface CompiledReader {
  read: Reader
  /** Paths of the parts left to zod (`$.payload.materials[]`...): none for a schema fully read. */
  declined: string[]
}

/** A fast reader for the values `schema` accepts; it declines (MISMATCH) whatever it is not sure of. */
export function compileReader(schema: unknown): CompiledReader {
  const declined: string[] = []
  return { read: readerOf(schema as Schema, '$', declined), declined }
}

function readerOf(
  schema: Schema,
  path: string,
  declined: string[],
  nullAsAbsent?: ReadonlySet<string>,
): Reader {
  const tolerant = tolerance.get(schema as never)
  if (tolerant?.scalar) return SCALARS[tolerant.scalar]
  const absent = tolerant?.nullAsAbsent ? new Set(tolerant.nullAsAbsent) : nullAsAbsent
  if (tolerant?.dispatch) return dispatch(tolerant.dispatch, path, declined, absent)
  const def = schema._zod.def
  if (tolerant?.nullAsAbsent && def.type === 'pipe')
    return readerOf(def.out as Schema, path, declined, absent)
  const refuse = (why: string) => {
    declined.push(`${path} (${why})`)
    return decline
  }
  if (Array.isArray(def.checks) && def.checks.length > 0) return refuse(`${def.type} with checks`)
  switch (def.type) {
    case 'string':
      return string
    case 'number':
      return number
    case 'boolean':
      return boolean
    case 'unknown':
      return unknown
    case 'literal':
      return literal(def.values as unknown[])
    case 'nullable':
      return nullable(readerOf(def.innerType as Schema, path, declined))
    case 'array':
      return array(readerOf(def.element as Schema, `${path}[]`, declined))
    case 'record':
      if ((def.keyType as Schema)._zod.def.type !== 'string') return refuse('record key')
      return record(readerOf(def.valueType as Schema, `${path}{}`, declined))
    case 'object':
      if ((def.catchall as Schema | undefined)?._zod.def.type !== 'unknown')
        return refuse('not a loose object')
      return objectReader(def.shape as Record<string, Schema>, path, declined, absent)
    case 'union':
      if (typeof def.discriminator === 'string') {
        const variants = variantsOf(schema, path, declined, absent)
        return (v) =>
          isPlainRecord(v) ? (variants.get(v[def.discriminator as string])?.(v) ?? MISMATCH) : MISMATCH
      }
      if (!(def.options as Schema[]).every((o) => EXACT.has(o._zod.def.type))) return refuse('union')
      return firstOf((def.options as Schema[]).map((o) => readerOf(o, path, declined)))
    default:
      return refuse(def.type)
  }
}

function objectReader(
  shape: Record<string, Schema>,
  path: string,
  declined: string[],
  nullAsAbsent: ReadonlySet<string> | undefined,
): Reader {
  const fields: Record<string, FieldReader> = {}
  for (const [name, field] of Object.entries(shape)) {
    const def = field._zod.def
    fields[name] =
      def.type === 'optional'
        ? optional(readerOf(def.innerType as Schema, `${path}.${name}`, declined))
        : required(readerOf(field, `${path}.${name}`, declined))
  }
  return looseObject(fields, nullAsAbsent)
}

/** A discriminated union's readers by the value of its discriminator. */
function variantsOf(
  schema: Schema,
  path: string,
  declined: string[],
  nullAsAbsent: ReadonlySet<string> | undefined,
): Map<unknown, Reader> {
  const { discriminator, options } = schema._zod.def as Def & { discriminator: string; options: Schema[] }
  const variants = new Map<unknown, Reader>()
  for (const option of options) {
    const shape = option._zod.def.shape as Record<string, Schema>
    const read = readerOf(option, path, declined, nullAsAbsent)
    const values = (shape[discriminator]?._zod.def.values ?? []) as unknown[]
    for (const value of values) variants.set(value, read)
  }
  return variants
}

/** Core's hand dispatch: the known variant for the key's value, else the catch-all. */
function dispatch(
  by: NonNullable<Tolerance['dispatch']>,
  path: string,
  declined: string[],
  nullAsAbsent: ReadonlySet<string> | undefined,
): Reader {
  const variants = variantsOf(by.known as Schema, path, declined, nullAsAbsent)
  const other = readerOf(by.other as Schema, path, declined, nullAsAbsent)
  return (v) => {
    if (!isPlainRecord(v) || typeof v[by.key] !== 'string') return MISMATCH
    return (variants.get(v[by.key]) ?? other)(v)
  }
}
