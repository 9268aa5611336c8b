/**
 * The HTTP Archive format, version 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as a zod
 * schema: every object with its required fields and their types, optional fields typed, and any
 * field the spec does not name starting with `_` (the spec's rule for custom fields). Plus the
 * rules between fields: an entry's `time` is the sum of its timings other than -1. Written with
 * zod, which svc-mock already depends on, so checking a HAR needs no JSON Schema library.
 */
import { z } from 'zod'

/** An object of the spec: these fields, and custom ones only when they start with `_`. */
function spec<T extends z.ZodRawShape>(shape: T) {
  return z
    .object(shape)
    .catchall(z.unknown())
    .superRefine((value, ctx) => {
      for (const key of Object.keys(value)) {
        if (!(key in shape) && !key.startsWith('_')) ctx.addIssue({ code: 'custom', message: `"${key}" is not a HAR 1.2 field (custom fields start with "_")`, path: [key] })
      }
    })
}

const comment = z.string().optional()
const size = z.number().int().min(-1)
/** ISO 8601 with a time zone, as the spec's examples (`2009-04-16T12:07:25.123+01:00`). */
const isoDateTime = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/, 'an ISO 8601 date and time with a time zone')
const nameValue = spec({ name: z.string(), value: z.string(), comment })
const cookie = spec({
  name: z.string(),
  value: z.string(),
  path: z.string().optional(),
  domain: z.string().optional(),
  expires: isoDateTime.optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  comment,
})
const timing = z.number().min(-1)

export const HarEntry = spec({
  pageref: z.string().optional(),
  startedDateTime: isoDateTime,
  time: z.number().min(0),
  request: spec({
    method: z.string().min(1),
    url: z.url(),
    httpVersion: z.string(),
    cookies: z.array(cookie),
    headers: z.array(nameValue),
    queryString: z.array(nameValue),
    postData: spec({
      mimeType: z.string(),
      params: z.array(spec({ name: z.string(), value: z.string().optional(), fileName: z.string().optional(), contentType: z.string().optional(), comment })).optional(),
      text: z.string().optional(),
      comment,
    }).optional(),
    headersSize: size,
    bodySize: size,
    comment,
  }),
  response: spec({
    status: z.number().int().min(0),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(cookie),
    headers: z.array(nameValue),
    content: spec({
      size: z.number().int().min(0),
      compression: z.number().int().optional(),
      mimeType: z.string(),
      text: z.string().optional(),
      encoding: z.string().optional(),
      comment,
    }),
    redirectURL: z.string(),
    headersSize: size,
    bodySize: size,
    comment,
  }),
  cache: spec({ beforeRequest: z.unknown().optional(), afterRequest: z.unknown().optional(), comment }),
  timings: spec({
    blocked: timing.optional(),
    dns: timing.optional(),
    connect: timing.optional(),
    send: z.number().min(0),
    wait: z.number().min(0),
    receive: z.number().min(0),
    ssl: timing.optional(),
    comment,
  }),
  serverIPAddress: z.string().optional(),
  connection: z.string().optional(),
  comment,
}).superRefine((entry, ctx) => {
  const { blocked = -1, dns = -1, connect = -1, send, wait, receive } = entry.timings
  // `ssl` is included in `connect`, so it does not count again.
  const total = [blocked, dns, connect, send, wait, receive].filter((t) => t !== -1).reduce((a, b) => a + b, 0)
  if (Math.abs(total - entry.time) > 0.001) ctx.addIssue({ code: 'custom', message: `time ${entry.time} is not the sum of the timings (${total})`, path: ['time'] })
})

export const Har = spec({
  log: spec({
    version: z.literal('1.2'),
    creator: spec({ name: z.string(), version: z.string(), comment }),
    browser: spec({ name: z.string(), version: z.string(), comment }).optional(),
    pages: z.array(spec({ startedDateTime: isoDateTime, id: z.string(), title: z.string(), pageTimings: spec({ onContentLoad: z.number().optional(), onLoad: z.number().optional(), comment }), comment })).optional(),
    entries: z.array(HarEntry),
    comment,
  }),
})
export type Har = z.infer<typeof Har>

/** Parses a HAR document and checks it against HAR 1.2; throws naming the first problem. */
export function parseHar(text: string): Har {
  const result = Har.safeParse(JSON.parse(text))
  if (!result.success) {
    const issue = result.error.issues[0]
    throw new Error(`Not a valid HAR 1.2 document at ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`)
  }
  return result.data
}
