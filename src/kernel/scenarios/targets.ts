/**
 * Scenario targets: what a scenario can be aimed at besides a route (`webhook=orders`,
 * `client=ci-client`). The domains declare them, the pipeline reads them from a request, and the
 * engine compares them with each scenario's aim.
 */
import type { RequestBody } from '../request.js'

/** What a scenario target reads from a request. */
export interface TargetSource {
  readonly routeId: string
  readonly params: Readonly<Record<string, string>>
  readonly url: URL
  readonly headers: Headers
  readonly body: RequestBody | null
}

/**
 * Something a scenario can be aimed at: its name, how to read it from a request (only when an
 * active scenario is aimed at this name), and the values that exist now (for messages that name
 * the closest one).
 */
export interface ScenarioTarget {
  readonly name: string
  readonly description: string
  read(request: TargetSource): string | undefined | Promise<string | undefined>
  values(): readonly string[]
}

/** A request's targets, by name (read only for the names some active scenario is aimed at). */
export type RequestTargets = Readonly<Record<string, string | undefined>>
