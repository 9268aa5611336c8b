/**
 * `svc-mock verify --help` (and `svc-mock help verify`): what verify does, its flags with their
 * variables (from the flag table), the outputs and the exit codes.
 */
import { packagePath } from '../kernel/package-root.js'
import { HOMEPAGE } from '../version.js'
import { flagsHelp } from './flags.js'

export function verifyHelp(): string {
  return `svc-mock verify --target URL (--client-id ID --client-secret SECRET | --api-key KEY --key-kind user|app) [options]
svc-mock verify --against DIR [--routes PATH]

Is svc-mock still the platform? Sends one set of probes to your team (the token endpoint,
discovery and JWKS, the who-am-I family, the versions of --element, your routes' GETs; with
--webhook and --allow-writes a webhook call), and the same probes with svc-mock's own equivalent
credentials and element to svc-mock in this process, and compares each pair: status, content
type, the documented headers, error bodies and their messages, and the JSON shape of success
bodies. What is meant to differ (ids, times, tokens, your team's names) is normalized first.
Read-only unless --allow-writes. Credentials are never printed, logged or written.

Flags (environment variable in brackets; a flag wins over its variable):
${flagsHelp()}

Output: a line per probe (same / differs: where and what / skipped: why), then
"verify: N same, M differ, K skipped".
Exit codes: 0 nothing differs, 1 something differs, 2 a bad flag, or verify stopped before
comparing (a probe the team's answer shows is wrong, a certificate not trusted, nothing listening,
nothing compared): the message says what to fix.
Docs: ${packagePath('docs', 'verify.md')}, also at ${HOMEPAGE}`
}
