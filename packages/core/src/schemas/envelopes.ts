import { z } from 'zod'

/**
 * The open envelope's `code`: a string per the spec, but the live service also sends the
 * number 0 (docs/service/envelopes.md). Which values mean success is core's business (envelope.ts).
 */
export const openCodeSchema = z.union([z.string(), z.number()])

/** Team-area success envelope `{success: true, data}` around the given data schema. */
export function teamEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.looseObject({ success: z.literal(true), data })
}

/** Team-area failure envelope `{success: false, error}`. */
export const teamErrorEnvelopeSchema = z.looseObject({ success: z.literal(false), error: z.string() })

/** Open-area envelope `{code, message, result, traceId?}` around the given result schema. */
export function openEnvelopeSchema<T extends z.ZodType>(result: T) {
  return z.looseObject({
    code: openCodeSchema,
    message: z.string().exactOptional(),
    result,
    traceId: z.string().exactOptional(),
  })
}

/** Open-area failure envelope: `code` is an error code such as `MB100001`; `result` is usually null. */
export const openErrorEnvelopeSchema = z.looseObject({
  code: openCodeSchema,
  message: z.string().exactOptional(),
  result: z.unknown().exactOptional(),
  traceId: z.string().exactOptional(),
})
