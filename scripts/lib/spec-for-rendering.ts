import { parse } from 'yaml'

/** Added to the rendered spec's description: why its examples show ids in quotes. */
export const RENDERED_IDS_NOTE =
  '**In this rendering**, integers beyond 2^53 (the 64-bit ids) are shown as strings in the examples, so that every digit shows: a browser would round them as numbers (`1673603133161799680` would read `1673603133161799700`). On the wire they are JSON integers.'

/**
 * `spec/openapi.yaml` as the renderer needs it: parsed losslessly (integers as `bigint`), every
 * integer beyond 2^53 turned into its decimal string (a JSON renderer in a browser would round it
 * as a number), the others back to numbers. Returns the document as JSON text.
 */
export function specForRendering(yamlText: string): string {
  const doc = parse(yamlText, { intAsBigInt: true }) as { info?: { description?: string } }
  const lossless = exact(doc) as typeof doc
  if (lossless.info)
    lossless.info.description = `${lossless.info.description ?? ''}\n\n${RENDERED_IDS_NOTE}\n`
  return JSON.stringify(lossless)
}

function exact(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  if (Array.isArray(value)) return value.map(exact)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, exact(inner)]))
  return value
}
