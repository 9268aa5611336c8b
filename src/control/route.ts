/**
 * How the control plane declares its routes: every one lives under `/__svc-mock/` on `{base_url}`,
 * is a control route (no scenario ever shapes it), and is named `control.<operation>`.
 */
import { empty, type Reply } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'

export const CONTROL_PREFIX = '/__svc-mock'

type Handler = (ctx: RequestContext) => Promise<Reply> | Reply

export function controlRoute(
  id: string,
  method: RouteDefinition['method'],
  path: string,
  summary: string,
  resolve: Handler,
  extra: Partial<RouteDefinition> = {},
): RouteDefinition {
  return { id: `control.${id}`, method, path: `${CONTROL_PREFIX}${path}`, origin: 'base', summary, control: true, resolve, ...extra }
}

export const noContent = (): Reply => empty(204)
