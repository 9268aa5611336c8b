/**
 * A resource's record: a JSON object, its members kept as they are. One named `__proto__` stays
 * a member (a `z.record` would drop it), so what a route file, a POST or a PUT gives is what GET
 * answers.
 */
import * as z from 'zod'
import { documentAs } from '../kernel/docs.js'
import type { JsonObject } from '../kernel/json.js'

export const RecordSchema: z.ZodType<JsonObject, JsonObject> = documentAs(
  z.custom<JsonObject>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'a record is a JSON object'),
  { input: { type: 'object' }, output: { type: 'object' } },
)
