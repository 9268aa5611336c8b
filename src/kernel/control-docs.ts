/**
 * The words every control-plane operation's documentation shares: the `{"error", "field"}` body of
 * each refusal, the guard's refusals (a page of another origin or site: 403; a host name other than
 * loopback or the emulator's own: 421; a change with a body not sent as JSON: 415) and a bad body
 * (400). Imported only by the documentation, which loads when an OpenAPI document is asked for.
 */
import * as z from 'zod'
import type { ResponseDoc, RouteDoc } from './route.js'

/** `{"error": "…", "field": "…"}`: every refusal of the control plane. */
export const ControlErrorBody = z.object({ error: z.string(), field: z.string().optional().meta({ description: 'The field or parameter at fault.' }) }).meta({ id: 'ControlError' })

/** A JSON answer. */
export const json = (description: string, schema: z.ZodType): ResponseDoc => ({ description, content: { 'application/json': schema } })
/** A refusal, `{"error", "field"}`. */
export const refused = (description: string): ResponseDoc => json(description, ControlErrorBody)
export const noContent: ResponseDoc = { description: 'Done.' }

const FOREIGN_ORIGIN: ResponseDoc = { ...refused('Sent by a page of another origin (`Origin`) or site (`Sec-Fetch-Site: cross-site` or `same-site`).'), name: 'ForeignOrigin' }
const MISDIRECTED: ResponseDoc = { ...refused("Addressed to a host name other than loopback or the emulator's own."), name: 'Misdirected' }
/** The refusals every change can meet (the guards), and a bad body. */
export const CHANGE_REFUSALS: Readonly<Record<string, ResponseDoc>> = {
  '400': { ...refused('A bad body or parameter, naming the field.'), name: 'InvalidInput' },
  '403': FOREIGN_ORIGIN,
  '415': { ...refused('A body not sent as `Content-Type: application/json` (a change without a body needs no Content-Type).'), name: 'NotJson' },
  '421': MISDIRECTED,
}
/** The refusals every read can meet (the guards). */
export const READ_REFUSALS: Readonly<Record<string, ResponseDoc>> = { '403': FOREIGN_ORIGIN, '421': MISDIRECTED }

/** A JSON body, required. */
export const body = (schema: z.ZodType): Pick<RouteDoc, 'body' | 'bodyRequired'> => ({ body: { 'application/json': schema }, bodyRequired: true })
