/**
 * A verify probe: one request `svc-mock verify` sends to the user's team and, with svc-mock's own
 * equivalent credential and element, to an in-process emulator, and what of the two answers it
 * compares. Probes are data, declared by the domain whose API they check (its verify-probes.ts);
 * the kernel names only their shape, never a list of them.
 */
import type { JsonValue } from './json.js'

/**
 * The credential a probe sends: `none`; `secret`, the client's id and secret in a Basic header (the
 * token endpoint); `wrong-secret`, the client's id with a made-up secret; `api`, what an API call
 * sends (the key given, else the access token the probe marked `yieldsToken` got).
 */
export type ProbeCredential = 'none' | 'secret' | 'wrong-secret' | 'api'

/** An answer of the target that shows the probe itself is wrong: verify stops and says what to fix. */
export interface ProbeMisfit {
  /** The target's status that shows it. */
  readonly status: number
  /** What to fix, in a sentence; `{name}` placeholders are filled with the target's values. */
  readonly fix: string
}

/** What of the two answers is compared, beyond status, content type, documented headers and body. */
export interface ProbeComparison {
  /**
   * Paths (`$.elements[].attributes`, `$.elements[].attributes.*`) of objects keyed by the team's
   * own data (attribute names, language keys): a key one side has alone is no difference, a key
   * both have is compared as any member. `*` stands for any member of such an object.
   */
  readonly maps?: readonly string[]
  /** Paths of members whose presence depends on the data (an optional Element field). */
  readonly optional?: readonly string[]
  /** Extra normalization of the messages: `find` (a regular expression) becomes `as`. */
  readonly text?: ReadonlyArray<{ readonly find: string; readonly as: string }>
}

export interface VerifyProbe {
  /** Stable id (`token.valid`): names the probe in the output, the reports and the saved answers. */
  readonly id: string
  /** The API it checks, as the reports group probes (`token endpoint`, `who-am-I`). */
  readonly api: string
  /** What it sends, in a few words. */
  readonly title: string
  /** The name of the address it goes to (`auth`, `base` or `webhook`). */
  readonly address: string
  readonly method: string
  /** The path, with `{name}` placeholders each side fills (`{collection}`, …, `{webhook}`). */
  readonly path: string
  /** Query parameters, sent in this order. */
  readonly query?: Readonly<Record<string, string>>
  readonly headers?: Readonly<Record<string, string>>
  /** A form body (`application/x-www-form-urlencoded`). */
  readonly form?: Readonly<Record<string, string>>
  /** A JSON body. */
  readonly json?: JsonValue
  readonly credential: ProbeCredential
  /** Creates, changes or runs something on the target: sent only with `--allow-writes`. */
  readonly writes?: boolean
  /** Its answer's `access_token` is what later `api` probes send when no key was given. */
  readonly yieldsToken?: boolean
  /** Why it is never sent (a route with path parameters). */
  readonly skip?: string
  readonly compare?: ProbeComparison
  /** Target answers that mean the probe is wrong, not svc-mock. */
  readonly misfits?: readonly ProbeMisfit[]
}
