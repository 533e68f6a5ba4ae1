import { z } from 'zod'
import { tolerance } from './tolerance.ts'

/**
 * An event's `eventTime`: a string (epoch milliseconds, or ISO 8601 in folder callbacks). A
 * number is accepted too and turned into its string, so ordering code sees a single type.
 */
export const eventTimeSchema = z
  .union([z.string(), z.number().transform(String)])
  .register(tolerance, { scalar: 'eventTime' })
