/**
 * A JSON value, as a type for public inputs (a flow's response body, an attribute's value, a
 * scenario's answer) where the schema accepts any value: callers get completion and type errors
 * instead of `unknown`, and the check stays as loose as before (over HTTP every value is JSON
 * anyway; in-process, whatever `JSON.stringify` takes is sent as it would send it).
 */
import * as z from 'zod'

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

export type JsonObject = { [key: string]: JsonValue }

/** Any JSON value (in JSON Schema: any value). */
export const JsonValue: z.ZodType<JsonValue, JsonValue> = z.custom<JsonValue>()
