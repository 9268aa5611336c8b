/**
 * svc-mock: a faithful local emulator of the platform's OAuth, REST and inbound-webhook APIs.
 *
 *   const emu = await createEmulator()
 *   const server = setupServer(...emu.handlers)   // msw, in your own test suite
 *
 * The standalone server is `svc-mock/server` (`startServer()`) or the `svc-mock` command.
 */
import type { RequestHandler } from 'msw'
import { type Emulator, type EmulatorOptions, buildEmulator } from './emulator.js'

export interface InProcessEmulator extends Emulator {
  /** msw request handlers serving every route of the emulator, for your `setupServer(...)`. */
  readonly handlers: RequestHandler[]
}

/** Creates an emulator seeded from the fixtures, with msw handlers for in-process use. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<InProcessEmulator> {
  const core = await buildEmulator(options)
  const { mswHandlers } = await import('./adapters/msw.js')
  const handlers = mswHandlers(core)
  return Object.assign(core, { handlers })
}

export type {
  ApiKeysApi,
  ClockApi,
  CreatedApiKey,
  CredentialInfo,
  ElementsApi,
  Emulator,
  EmulatorOptions,
  EmulatorUrls,
  JournalApi,
  RouteInfo,
  ScenariosApi,
  StoragesApi,
} from './emulator.js'
export { DEFAULT_ORIGIN, VERSION } from './emulator.js'
export type { ClockMode, ClockOptions, ClockState } from './kernel/clock.js'
export type { JournalEntry, JournalFilter, JournalWaitOptions, Transport } from './kernel/journal.js'
export type { LogFormat, Logger } from './kernel/logger.js'
export type { ScenarioActivation, ScenarioListing } from './kernel/scenarios/engine.js'
export type { ScenarioFile, ScenarioRule } from './kernel/scenarios/schema.js'
export type { FixtureInput, InlineFixtures } from './kernel/fixtures.js'
export type { ElementSummary } from './versions/store.js'
export {
  ConfigError,
  ControlError,
  FixtureError,
  HttpError,
  ScenarioError,
  SvcMockError,
  UnknownScenarioError,
  type SvcMockErrorCode,
} from './kernel/errors.js'
export { ApiAccessError, type ApiAccessProblem } from './auth/errors.js'
export { VersionsError, type OperationResultBody } from './versions/errors.js'
export { PortInUseError } from './adapters/server.js'
// --- OAuth (issue 3) ---
export type { CreatedClient, IssueTokenInput, OAuthApi, OAuthClientsApi, OAuthConsentsApi } from './auth/oauth/api.js'
export type { ClientInfo } from './auth/oauth/clients.js'
export type { ConsentInfo } from './auth/oauth/consents.js'
export type { TokenResponse } from './auth/oauth/tokens.js'
export type { TokenAlgorithm } from './auth/settings.js'
export { OAuthError, type OAuthErrorCode } from './auth/oauth/errors.js'
export { RateLimitError } from './auth/errors.js'
// --- end OAuth ---
// --- webhooks (issue 4) ---
export type { WebhooksApi } from './emulator.js'
export type { WebhookView } from './webhooks/domain.js'
export { ExecutionTimeoutError, type Execution, type ExecutionPredicate } from './webhooks/executions.js'
export type { Bundle, DataStructure, Field, FieldType, FileValue, FlowConfig, FlowOutcome, ResponseStep, WebhookOptions } from './webhooks/model.js'
export { WebhookError, type WebhookProblem } from './webhooks/errors.js'
// --- end webhooks ---
// --- dashboard (issue 6) ---
export type { UsersApi } from './emulator.js'
export type { EmulatorEvent, EmulatorEventListener, SubscribeOptions } from './events.js'
export type { EmulatorState, ExecutionSummary, UserInfo, WebhookEffect, WebhookState } from './state.js'
// --- end dashboard ---
