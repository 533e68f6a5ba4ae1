import { z } from 'zod'

/**
 * What a tolerant schema does that its zod definition alone does not show: the parts built from
 * functions (a preprocess, a transform). Recorded beside the schemas so that a reader generated
 * from them (the webhooks package's fast path) reads exactly what they read; a schema with no
 * entry is read from its definition.
 */
export interface Tolerance {
  /** These fields, sent as null, are read as absent (a preprocess drops them). */
  nullAsAbsent?: readonly string[]
  /**
   * The value is read by the schema `known` when it has a variant for the `key` field's value,
   * else by the schema `other` (typed `unknown`: zod's registry types nested schemas too deeply).
   */
  dispatch?: { key: string; known: unknown; other: unknown }
  /** One of the SDK's scalar readings: an id as its canonical decimal string, an event time as a string. */
  scalar?: 'id' | 'eventTime'
}

/** The tolerance of each schema that has one (a zod registry: `tolerance.get(schema)`). */
export const tolerance = z.registry<Tolerance>()
