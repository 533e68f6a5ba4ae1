import { z } from 'zod'

/**
 * A value of an open enum: one of the known values, or another the service may have added since.
 * `(string & {})` rather than `string`, so that editors still offer the known values.
 */
export type OpenEnum<Known extends string | number> =
  | Known
  | (Known extends string ? string & {} : number & {})

/**
 * An open enum: any string is accepted and kept as sent (receivers must not enforce a fixed
 * schema), typed as the known values or another string. Which values are unknown is reported by
 * the receiver (see OPEN_ENUM_FIELDS), not refused here.
 */
export function openEnum<const T extends readonly string[]>(_known: T): z.ZodType<OpenEnum<T[number]>> {
  return z.string() as z.ZodType<OpenEnum<T[number]>>
}

/** An open enum of integer codes (`source: 1 | 2 | 3`, or a code added since). */
export function openCode<const T extends readonly number[]>(_known: T): z.ZodType<OpenEnum<T[number]>> {
  return z.number() as z.ZodType<OpenEnum<T[number]>>
}
