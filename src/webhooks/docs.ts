/**
 * The webhook address as the OpenAPI document shows it: a call in any encoding, and every answer
 * the platform's gateway gives (the texts come from wire.ts, so they cannot drift).
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import type { RouteDoc } from '../kernel/route.js'
import { ACCEPTED_TEXT, AUTHENTICATED_HEADER, FLOW_FAILED_TEXT, GONE_TEXT, QUEUE_FULL_TEXT, TIMED_OUT_TEXT, TOO_LARGE_TEXT, UNAUTHORIZED_TEXT } from './wire.js'

const Fields = z.record(z.string(), z.string()).meta({ description: 'Fields of the bundle; repeated names become arrays.' })
const Multipart = z.record(z.string(), z.string()).meta({ description: 'Text fields, and files (each arrives in the bundle as {name, mime, data}).' })

export const RECEIVE_DOC: RouteDoc = {
  description:
    'A call to a webhook: the query string and the body (JSON, urlencoded form, multipart with files, or text) become the bundle its flow receives, ' +
    'validated against the data structure (with JSON pass-through a JSON body is not parsed or validated: the flow gets its text as `value`). Every method but OPTIONS is accepted like POST. A secured webhook needs `Authorization` (AppKey or Bearer); the call its flow receives then carries ' +
    '`x-service-authenticated: true` instead of that `Authorization`. A caller\'s own `x-service-authenticated` never reaches a flow. ' +
    'The answer is `Accepted` at once, or the flow\'s webhook-response step.',
  params: { token: 'The webhook\'s address token (a default webhook\'s is its name: orders, uploads, sync-reply, secured, paused, learning).' },
  query: z.object({}).catchall(z.string()).meta({ description: 'Any parameters: they join the bundle (query wins on a clash).' }),
  body: {
    'application/json': JsonValue,
    'application/x-www-form-urlencoded': Fields,
    'multipart/form-data': Multipart,
    'text/plain': z.string().meta({ description: 'Arrives in the bundle as `value`.' }),
  },
  security: ['appKey', 'bearer', 'none'],
  responses: {
    '200': {
      description: `\`${ACCEPTED_TEXT}\` (the call is queued or processed), or the flow's webhook-response step (any status, headers and body).`,
      content: { 'text/plain': z.literal(ACCEPTED_TEXT) },
      headers: { [AUTHENTICATED_HEADER]: '`true` when a secured webhook accepted the credential (the call the flow receives carries it too).' },
    },
    '400': { description: `\`${QUEUE_FULL_TEXT}\`, or the validation failure naming the field and the rule.`, content: { 'text/plain': z.string() } },
    '401': { description: `\`${UNAUTHORIZED_TEXT}\`: a secured webhook without a valid credential.`, content: { 'text/plain': z.literal(UNAUTHORIZED_TEXT) } },
    '410': { description: `\`${GONE_TEXT}\`: no webhook at this address.`, content: { 'text/plain': z.literal(GONE_TEXT) } },
    '413': { description: `\`${TOO_LARGE_TEXT}\`: over 5,242,880 bytes.`, content: { 'text/plain': z.literal(TOO_LARGE_TEXT) } },
    '500': { description: `\`${FLOW_FAILED_TEXT}\` (the flow failed), or \`${TIMED_OUT_TEXT}\` (no answer within 40 s of emulator time).`, content: { 'text/plain': z.string() } },
  },
}

export const OPTIONS_DOC: RouteDoc = {
  description: 'The CORS preflight.',
  params: { token: "The webhook's address token." },
  responses: {
    '200': {
      description: '`ok`, with CORS headers.',
      content: { 'text/plain': z.literal('ok') },
      headers: { 'Access-Control-Allow-Origin': '`*`', 'Access-Control-Allow-Methods': 'The methods a call may use.' },
    },
  },
}
