/**
 * The built-in scenarios' names, as a type: `emu.scenarios.use('webhook-queue-ful')` is a type error.
 * Generated from scenarios/*.json by `npm run schemas`; test/unit/scenario-names.test.ts keeps it in
 * step with the files.
 */
export type BuiltInScenarioName =
  | 'consent-denied'
  | 'device-denied'
  | 'device-expired'
  | 'device-pending'
  | 'device-slow-down'
  | 'flaky'
  | 'insufficient-permissions'
  | 'latency'
  | 'network-error'
  | 'rate-limited'
  | 'static-keys-rejected'
  | 'token-invalid-client'
  | 'token-server-error'
  | 'token-short-lived'
  | 'token-slow'
  | 'tokens-expired'
  | 'versions-not-found'
  | 'versions-server-error'
  | 'webhook-flow-fails'
  | 'webhook-flow-inactive'
  | 'webhook-gone'
  | 'webhook-queue-full'
  | 'webhook-timeout'
  | 'webhook-validation-fails'
