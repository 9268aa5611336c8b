/**
 * Element versions, the versions domain's one door: the process-management store (storages,
 * facets, views, elements and their versions, from fixtures and generated from the seed), the
 * operation that lists an element's versions (`versions.list`), and the store's operations for
 * `emu.elements` and `emu.storages`.
 */
import type { z } from 'zod'
import { authDomain } from '../auth/index.js'
import type { Domain, DomainModule, DomainSchemas } from '../kernel/domain.js'
import { ElementAdmin } from './admin.js'
import { type VersionsApi, versionsApi } from './api.js'
import { VERSIONS_PATH } from './constants.js'
import { versionsControl } from './control.js'
import { elementsSection, exampleVersionsUrl, generateSection, loadElements, storagesSection } from './fixtures.js'
import { listRequirement, listVersions } from './list.js'
import type { ElementFixtureInput, GenerateInput, StorageInput } from './model.js'
import { VERSIONS_FLAGS, type VersionsOptions, versionsBaseSettings } from './options.js'
import { VersionsSettings } from './settings.js'
import { ElementStore } from './store.js'
import type { SavedVersionsInput } from './saved.js'
import { VERSIONS_SCENARIO_ERRORS, renderVersionsError, versionsScenarioError } from './wire.js'

export type { ElementsApi, StoragesApi, VersionsApi } from './api.js'
export type { Where } from './admin.js'
export type { ElementFixtureInput, ElementInput, GenerateInput, StorageFixture, StorageInput, VersionInput } from './model.js'
export type { ElementSummary } from './summary.js'
export type { VersionsOptions } from './options.js'
export { VersionsError, type OperationResultBody } from './wire.js'
export { type ElementPlace, MADE_UP_ELEMENT, VERSIONS_VERIFY_PROBES, versionsEquivalent } from './verify-probes.js'

/** The fixture sections of the element store, as a fixture document gives them. */
export type VersionsFixtures = {
  storages?: StorageInput[]
  elements?: ElementFixtureInput[]
  /** Elements generated from the seed number. */
  generate?: GenerateInput
}

/** The `versions` section of the settings tree, as options and scenario files give it. */
export type VersionsSettingsInput = z.input<typeof VersionsSettings>

/** What the versions operation adds to the public types. */
export interface VersionsInputs {
  readonly fixtures: VersionsFixtures
  readonly settings: VersionsSettingsInput
  readonly targets: object
  readonly saved: SavedVersionsInput
}

export const versionsSchemas: DomainSchemas = {
  settings: { name: 'versions', schema: VersionsSettings },
  fixtures: [storagesSection, elementsSection, generateSection],
  saved: async () => (await import('./saved.js')).SavedVersions,
}

export const versionsDomain: DomainModule<'versions', VersionsOptions, Domain<VersionsApi>, VersionsInputs> = {
  name: 'versions',
  schemas: versionsSchemas,
  flags: VERSIONS_FLAGS,
  define: ({ kernel, address, options, use }) => {
    const { gate } = use(authDomain)
    // Element links (`expandUri`) point at `{base_url}`.
    const baseUrl = address('base')
    const store = new ElementStore()
    const newId = (): string => kernel.ids.uuid()
    const admin = new ElementAdmin(store, { baseUrl, newId })
    const api = versionsApi(admin)
    let example: string | undefined
    return {
      routes: [
        gate.protect(
          {
            id: 'versions.list',
            method: 'GET',
            path: VERSIONS_PATH,
            origin: 'base',
            summary: 'List the versions of an element of a facet view (api-version 4.0)',
            resolve: (ctx) => listVersions(ctx, store),
            renderError: (error) => renderVersionsError(error),
            scenarioErrors: VERSIONS_SCENARIO_ERRORS,
            scenarioError: (code, ctx, message) => versionsScenarioError(code, ctx.params.elementId ?? '', message),
          },
          listRequirement,
        ),
      ],
      api,
      control: versionsControl(api),
      docs: async () => ({ 'versions.list': (await import('./docs.js')).VERSIONS_DOC }),
      baseSettings: versionsBaseSettings(options),
      load: (fixtures) => {
        example = exampleVersionsUrl(fixtures, baseUrl)
        return loadElements(store, fixtures, { baseUrl, seed: kernel.seed, newId })
      },
      examples: () => (example === undefined ? [] : [{ url: example }]),
      saved: async () => (await import('./saved.js')).savedVersions(store, baseUrl),
      reset: async () => store.reset(),
    }
  },
}
