import type { Emulator, EmulatorOptions } from '../../src/index.js'

export interface Answer {
  readonly status: number
  readonly body: string
}

export interface DefaultsWalk {
  readonly elements: ReadonlyArray<{ readonly id: string; readonly storage: string; readonly facet: string }>
  readonly versions: Readonly<Record<string, Answer>>
  readonly state: unknown
  readonly addVersion: Answer
  readonly addElement: Answer
  readonly webhook: Answer
  readonly executions: string
}

export function walkDefaults(createEmulator: (options: EmulatorOptions) => Promise<Emulator>, options?: { readonly seed?: number }): Promise<DefaultsWalk>
