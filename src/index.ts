/**
 * svc-mock: a faithful local emulator of the platform's OAuth, REST and inbound-webhook APIs.
 *
 *   const emu = await createEmulator()
 *   const server = setupServer(...emu.handlers)   // msw, in your own test suite
 *
 * The standalone server is `svc-mock/server` (`startServer()`) or the `svc-mock` command.
 */
import type { AuthorizePageError, AuthorizeRedirectError, ApiAccessError, OAuthError, RateLimitError } from './auth/index.js'
import type { MswMissingError } from './adapters/msw-compat.js'
import type { PortInUseError } from './adapters/errors.js'
import type { LocalCaError } from './tls/errors.js'
import type { ForeignOriginError, MisdirectedRequestError, NotJsonError } from './control/index.js'
import type { ServerClosingError, TeamDeletedError, TeamPortError, TeamsUnavailableError, TooManyTeamsError } from './teams/index.js'
import type { KernelError } from './kernel/errors.js'
import type { VersionsError } from './versions/index.js'
import type { ExecutionTimeoutError, WebhookError } from './webhooks/index.js'
import type { RecordBodyError, RecordConflictError, RecordNotFoundError, RouteFileError, UpstreamError } from './user-routes/index.js'

export { createEmulator, type InProcessEmulator } from './adapters/in-process.js'
export { MswMissingError } from './adapters/msw-compat.js'

export type {
  BuiltInScenarioName,
  ClockApi,
  CredentialInfo,
  ExampleRequest,
  Emulator,
  EmulatorEvent,
  EmulatorEventListener,
  EmulatorOptions,
  EmulatorScenariosApi as ScenariosApi,
  EmulatorState,
  EmulatorUrls,
  FixtureInput,
  InlineFixtures,
  JournalApi,
  RouteInfo,
  SavedState,
  ImportSummary,
  ScenarioActivation,
  ScenarioName,
  ScenarioSpec,
  ScenarioTargets,
  SettingsInput,
} from './emulator-api.js'
export { DEFAULT_ORIGIN, VERSION } from './emulator.js'
export type { ClockMode, ClockOptions, ClockState } from './kernel/clock.js'
export type { SubscribeOptions } from './kernel/events.js'
export type { JournalEntry, JournalFilter, JournalWaitOptions, Transport } from './kernel/journal.js'
export type { Har, HarEntry, HarNameValue } from './kernel/har.js'
export type { NearMiss, NearMissDifference } from './kernel/unmatched.js'
export type { LogFormat, Logger } from './kernel/logger.js'
export type { ScenarioListing } from './kernel/scenarios/engine.js'
export type { ScenarioDefinitionInput, ScenarioFile, ScenarioRule, ScenarioRuleInput } from './kernel/scenarios/schema.js'
export type { JsonObject, JsonValue } from './kernel/json.js'
export {
  ConfigError,
  ConflictError,
  ControlError,
  FixtureError,
  HttpError,
  InvalidInputError,
  NotFoundError,
  PayloadTooLargeError,
  ScenarioError,
  SvcMockError,
  UnknownScenarioError,
} from './kernel/errors.js'
export { PortInUseError } from './adapters/errors.js'
export { LocalCaError } from './tls/errors.js'
export { ForeignOriginError, MisdirectedRequestError, NotJsonError } from './control/index.js'
export { ServerClosingError, TeamDeletedError, TeamPortError, TeamsUnavailableError, TooManyTeamsError, type TeamInfo } from './teams/index.js'
export {
  ApiAccessError,
  AuthorizePageError,
  AuthorizeRedirectError,
  OAuthError,
  RateLimitError,
  type ApiAccessProblem,
  type ApiKeyFixture,
  type ApiKeyInput,
  type ApiKeysApi,
  type AuthFixtures,
  type AuthSettingsInput,
  type ClientInfo,
  type ClientConditions,
  type ClientEffect,
  type ClientState,
  type ConsentInfo,
  type CreatedApiKey,
  type CreatedClient,
  type DeviceCodeInfo,
  type DeviceCodesApi,
  type IssueTokenInput,
  type OAuthApi,
  type OAuthClientFixture,
  type OAuthClientInput,
  type OAuthClientsApi,
  type OAuthConsentsApi,
  type OAuthErrorCode,
  type Permission,
  type PlatformTeamInput,
  type ScopeName,
  type SigningKeyInput,
  type TokenAlgorithm,
  type TokenResponse,
  type UserInfo,
  type UserInput,
  type UsersApi,
} from './auth/index.js'
export {
  VersionsError,
  type ElementFixtureInput,
  type ElementInput,
  type ElementSummary,
  type ElementsApi,
  type GenerateInput,
  type OperationResultBody,
  type StorageFixture,
  type StorageInput,
  type StoragesApi,
  type VersionInput,
  type VersionsFixtures,
  type VersionsSettingsInput,
} from './versions/index.js'
export {
  ExecutionTimeoutError,
  WebhookError,
  type Bundle,
  type DataStructure,
  type Execution,
  type ExecutionPredicate,
  type ExecutionSummary,
  type Field,
  type FieldType,
  type FileValue,
  type FlowConfig,
  type FlowOutcome,
  type FlowPatch,
  type FlowPatchInput,
  type ItemSpec,
  type ResponseStep,
  type ResponseStepInput,
  type WebhookEffect,
  type WebhookInput,
  type WebhookOptions,
  type WebhookProblem,
  type WebhookState,
  type WebhookView,
  type WebhooksApi,
  type WebhooksFixtures,
  type WebhooksSettingsInput,
} from './webhooks/index.js'
export {
  RecordBodyError,
  RecordConflictError,
  RecordNotFoundError,
  RouteFileError,
  UpstreamError,
  type ResourceCollection,
  type ResourceInput,
  type ResourcesApi,
  type RouteAuthInput,
  type RoutesDocumentInput,
  type RoutesInput,
  type Recording,
  type UserRouteContext,
  type UserRouteInput,
  type UserRouteResolver,
  type UserRoutesApi,
} from './user-routes/index.js'

/**
 * Every error svc-mock throws at a caller: `switch (error.code)` over this union narrows to the
 * class (use `error instanceof SvcMockError` first).
 */
export type AnySvcMockError =
  | KernelError
  | PortInUseError
  | LocalCaError
  | MswMissingError
  | ForeignOriginError
  | NotJsonError
  | MisdirectedRequestError
  | TeamsUnavailableError
  | TooManyTeamsError
  | TeamPortError
  | TeamDeletedError
  | ServerClosingError
  | ApiAccessError
  | RateLimitError
  | OAuthError
  | AuthorizeRedirectError
  | AuthorizePageError
  | VersionsError
  | WebhookError
  | ExecutionTimeoutError
  | RouteFileError
  | RecordNotFoundError
  | RecordBodyError
  | RecordConflictError
  | UpstreamError

/** The closed union of error codes. */
export type SvcMockErrorCode = AnySvcMockError['code']
