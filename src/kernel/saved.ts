/**
 * The door of saved states (`GET /__svc-mock/state/export`, `POST /__svc-mock/state/import`,
 * `emu.exportState()`, `emu.importState()`): what a domain declares for its part of the document,
 * and the refusals. A domain that keeps state gives its part's zod schema (`schemas.saved`, known
 * without building an emulator) and a `SavedPart` (`Domain.saved()`): how to write its part now,
 * and how to load one. Both are loaded with `import()` on first use; the document's reader and
 * writer (saved-state/) are too, so an emulator that never saves pays for nothing but this file.
 */
import type * as z from 'zod'
import type { ClockMode, ClockState } from './clock.js'
import { ControlError } from './errors.js'
import type { RouteRef } from './route.js'
import type { SavedActivation } from './scenarios/engine.js'

/** The format of saved states this svc-mock writes, and the newest it reads. */
export const SAVED_STATE_FORMAT = 1

/** The kernel's own part of a saved state: the id stream, the clock, the scenarios on for the run. */
export interface SavedKernelPart {
  /** Draws made from the run's id stream since its seed. */
  ids: number
  clock: { mode: ClockMode; now: string; timeScale: number }
  /** The run-level scenarios on, in rank order. */
  scenarios: SavedActivation[]
}

/**
 * A saved state as a document holds it: what the kernel writes (the format, the svc-mock version
 * that wrote it, when, a note on the secrets it holds, the seed, a digest of the fixtures it was
 * made over, the addresses it was saved at, the kernel's part), then one member per domain that
 * keeps state, named after the domain (`Domains`: their parts' types).
 */
export type SavedStateDocument<Domains extends object = object> = {
  svcMockState: number
  version: string
  /** Wall-clock time of the export, ISO 8601. */
  exportedAt: string
  note: string
  seed: number
  /** A digest of the fixture records it was made over (a document loads over other fixtures too, where its changes apply). */
  fixtures: string
  /** The addresses of the emulator that saved it. */
  urls: Record<string, string>
  kernel: SavedKernelPart
} & Domains

/** What loading a saved state answers. */
export interface ImportSummary {
  status: 'imported'
  /** The svc-mock version that wrote the document. */
  savedBy: string
  /** Whether the document was made over the fixtures this emulator loaded (`other`: its changes applied to these). */
  fixtures: 'same' | 'other'
  clock: ClockState
}
/** Where a document was saved, as it says: the addresses of the emulator that wrote it. */
export type SavedAt = Readonly<Record<string, string>>

/** What loading a part is told beside the part. */
export interface ImportContext {
  /** A refusal naming a member of this part (`added[0].clientId`); the document's path is prefixed. */
  problem(path: string, rule: string): SavedStateError
  /** The addresses of the emulator that saved the document: a part compares them with its own (signing keys, links). */
  readonly savedAt: SavedAt
}

/** A part checked and made ready: applying it cannot fail and takes no time. */
export interface PreparedPart {
  /** Replaces the domain's state with the part and makes it what a reset returns to. Synchronous. */
  apply(): void
  /** Once applied, the values of the domain's scenario targets, by target name (for those that change). */
  readonly targets?: Readonly<Record<string, readonly string[]>>
  /** Once applied, the domain's routes, when they change (scenarios may be aimed at them). */
  readonly routes?: readonly RouteRef[]
  /** Undoes what preparing made (a port opened), when another part is refused and nothing is applied. */
  discard?(): Promise<void>
}

/**
 * A domain's part of a saved state, for the part's schema `S` (its `schemas.saved`). Writing is
 * synchronous, so a document is one snapshot taken between two requests.
 */
export interface SavedPart<S extends z.ZodType = z.ZodType> {
  /** Loads what writing needs (before the snapshot, which is synchronous). */
  ready?(): Promise<void>
  /** The part as it is now, as the document holds it (JSON: the schema's input). */
  save(): z.input<S>
  /**
   * Checks the part (as the schema made it) against this emulator (a collision with the
   * fixtures, a dangling reference: `context.problem(path, rule)`) and makes what takes time,
   * changing nothing.
   */
  prepare(part: z.output<S>, context: ImportContext): Promise<PreparedPart>
}

/** A part's schema, loaded when first needed (a domain module's `schemas.saved`). */
export type SavedSchema = () => Promise<z.ZodType>

/** 400: a saved state that cannot be loaded; `field` is the member's path in the document. Nothing changed. */
export class SavedStateError extends ControlError<'ERR_SAVED_STATE'> {
  readonly code = 'ERR_SAVED_STATE'
  readonly status = 400
  readonly member: string
  readonly rule: string
  constructor(member: string, rule: string) {
    super(`Invalid saved state: ${member === '' ? 'the document' : member}: ${rule}`, member === '' ? undefined : member)
    this.member = member
    this.rule = rule
  }
}

/** 400: a saved state written by a newer svc-mock, in a format this one cannot read. Nothing changed. */
export class SavedStateVersionError extends ControlError<'ERR_SAVED_STATE_VERSION'> {
  readonly code = 'ERR_SAVED_STATE_VERSION'
  readonly status = 400
  /** The format version of the document (`svcMockState`). */
  readonly format: number
  /** The svc-mock version that wrote it, as it says (undefined when it does not say). */
  readonly writtenBy: string | undefined
  constructor(format: number, writtenBy: string | undefined, reads: number, version: string) {
    const by = writtenBy === undefined ? 'a newer svc-mock' : `svc-mock ${writtenBy}`
    super(`The saved state was written by ${by} (svcMockState ${format}); svc-mock ${version} reads svcMockState ${reads} and older: load it with ${writtenBy === undefined ? 'the svc-mock that wrote it' : by} or newer.`, 'svcMockState')
    this.format = format
    this.writtenBy = writtenBy
  }
}

/** 409: something of the state cannot be written into a document (a route answered by a function given in code). */
export class StateNotSavableError extends ControlError<'ERR_STATE_NOT_SAVABLE'> {
  readonly code = 'ERR_STATE_NOT_SAVABLE'
  readonly status = 409
}
