/**
 * A module-level zod schema built when it is first used rather than when its module loads.
 *
 * The domains declare their schemas at module level (fixture sections, control-plane bodies,
 * scenario files, stored records, settings), about 700 of them counting their parts; a test file
 * that imports svc-mock, builds an emulator and sends a few requests parses about 30. Building the
 * others cost every test file milliseconds and megabytes of allocation (zod sets up each schema's
 * internals, and each schema class on its first construction). `onFirstUse(() => z.object(…))`
 * stands for the schema and builds it on the first property read; every other operation reaches
 * the built schema too, so it parses, composes (`z.array(User)`), extends and reports like the
 * schema itself.
 *
 * Two places see the stand-in rather than the schema, and both are handled:
 * - JSON Schema: zod keys the schemas it has converted by object, and a converted schema's parts
 *   look themselves up by their own identity. The stand-in converts as a reference to the built
 *   schema, exactly as zod converts `z.lazy()` (so `docs/*.schema.json` and `openapi.json` come
 *   out the same; tests compare them).
 * - zod's metadata registry (`.meta()`, `.describe()`) is keyed by schema too: the built schema is
 *   registered, not the stand-in. Conversion goes through the built schema, so its metadata
 *   (an `id` included: `auth/answers.ts`) appears as before; only a direct registry lookup with
 *   the stand-in finds nothing (svc-mock makes none).
 */
import { type $ZodType, type $ZodTypeInternals, type JSONSchema, type ProcessParams, type ToJSONSchemaContext, processSchema } from 'zod/v4/core'

export function onFirstUse<T extends $ZodType>(build: () => T): T {
  let built: T | undefined
  let internals: $ZodTypeInternals | undefined
  const schema = (): T => (built ??= build())
  // The proxy's own target stays empty; every trap answers from the built schema (its invariants
  // hold: nothing is ever reported non-configurable on an empty, extensible target).
  const standIn: T = new Proxy({} as T, {
    get: (_, key) => (key === '_zod' ? (internals ??= internalsOf(standIn, schema())) : Reflect.get(schema(), key)),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key)
      return descriptor && { ...descriptor, configurable: true }
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  })
  return standIn
}

/** The built schema's internals, except that JSON Schema conversion refers to the built schema (as for `z.lazy()`). */
function internalsOf(standIn: $ZodType, schema: $ZodType): $ZodTypeInternals {
  const processJSONSchema = (ctx: ToJSONSchemaContext, _json: JSONSchema.BaseSchema, params: ProcessParams): void => {
    processSchema(schema, ctx, params)
    const seen = ctx.seen.get(standIn)
    if (seen) seen.ref = schema
  }
  return Object.create(schema._zod, { processJSONSchema: { value: processJSONSchema } }) as $ZodTypeInternals
}

/** A value made by its first caller and shared by every later one (module-level values that only some paths need). */
export function memo<T>(make: () => T): () => T {
  let made: { value: T } | undefined
  return (): T => (made ??= { value: make() }).value
}
