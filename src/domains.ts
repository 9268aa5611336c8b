/**
 * The domains an emulator is made of, in the order they are defined and load their fixtures, and
 * the public types they add up to: the emulator object, fixture documents, settings, scenario
 * aims, run options and state; and their command-line flags. A new domain is its folder and one
 * line in `DOMAINS`.
 */
import { authDomain } from './auth/index.js'
import type { Domain, DomainContext, DomainModule } from './kernel/domain.js'
import type { FixtureSection } from './kernel/fixtures.js'
import type { Flag } from './kernel/flags.js'
import type { SettingsSection } from './kernel/settings.js'
import { userRoutesDomain } from './user-routes/index.js'
import { versionsDomain } from './versions/index.js'
import { webhooksDomain } from './webhooks/index.js'

export const DOMAINS = [authDomain, versionsDomain, webhooksDomain, userRoutesDomain] as const

/** Every section a fixture document may have. */
export const FIXTURE_SECTIONS: readonly FixtureSection<unknown>[] = DOMAINS.flatMap((d) => d.schemas.fixtures)

/** Every domain's command-line flags, in the order of `DOMAINS`. */
export const DOMAIN_FLAGS: readonly Flag<DomainOptions>[] = DOMAINS.flatMap((d): readonly Flag<DomainOptions>[] => d.flags ?? [])

/** Every section of the settings tree. */
export const SETTINGS_SECTIONS: readonly SettingsSection[] = DOMAINS.flatMap((d) => (d.schemas.settings ? [d.schemas.settings] : []))

type Module = (typeof DOMAINS)[number]

/** `A | B` to `A & B`. */
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

type MadeBy<M> = M extends { define(context: never): infer Made } ? Made : never
type ApiOf<D> = D extends Domain<infer Api> ? Api : never
type StateOf<D> = D extends Domain<object, infer State> ? State : never
type OptionsOf<M> = M extends { define(context: DomainContext<infer Options>): unknown } ? Options : never
type InputsOf<M> = M extends DomainModule<string, never, Domain, infer Inputs> ? Inputs : never

/** What every domain adds to the emulator object (`emu.webhooks`, `emu.oauth`, …). */
export type DomainApis = Intersection<ApiOf<MadeBy<Module>>>
/** What every domain adds to the emulator's state. */
export type DomainState = Intersection<StateOf<MadeBy<Module>>>
/** The run options every domain reads. */
export type DomainOptions = Intersection<OptionsOf<Module>>
/** The sections of a fixture document, each domain's. */
export type DomainFixtures = Intersection<InputsOf<Module>['fixtures']>
/** What a scenario can be aimed at, in every domain. */
export type DomainTargets = Intersection<InputsOf<Module>['targets']>
/** Raw settings by section, each field optional. */
export type DomainSettings = { [M in Module as M['name']]?: InputsOf<M>['settings'] }
type SavedOf<M> = InputsOf<M> extends { readonly saved?: infer Part } ? Exclude<Part, undefined> : never
/** Each domain's part of a saved state, by the domain's name (a document may leave any out). */
export type DomainSaved = { [M in Module as [SavedOf<M>] extends [never] ? never : M['name']]?: SavedOf<M> }
