/**
 * The team's answers that show the probes are wrong, not svc-mock: a status a probe declares as a
 * misfit (a 404 for the element the user named), a credential accepted by no probe that sent it
 * (401s), a redirect or an HTML page for every probe (a sign-in page: not the team's API address).
 * Any of them stops the run with one message saying what to fix, instead of twenty "differs".
 */
import type { VerifyProbe } from '../kernel/verify-probe.js'
import type { ApiCredential } from './catalogue.js'
import { mediaType } from './normalize.js'
import type { Place } from './options.js'
import type { RawAnswer } from './transport.js'

export interface Answered {
  readonly probe: VerifyProbe
  readonly answer: RawAnswer
}

const CREDENTIAL_FIX: Readonly<Record<ApiCredential, string>> = {
  'user-key': 'check --api-key, and --key-kind: a user API key is sent as "Bearer", an application key (--key-kind app) as "AppKey"',
  'app-key': 'check --api-key, and --key-kind: an application key is sent as "AppKey", a user API key (--key-kind user) as "Bearer"',
  token: 'the access token of --client-id is not accepted by the API: check that the client has access to the API, and --auth-url if the token comes from another address',
  none: 'give a credential: --api-key or --client-id/--client-secret',
}

const isRedirect = (answer: RawAnswer): boolean => answer.status >= 300 && answer.status < 400
const isHtml = (answer: RawAnswer): boolean => mediaType(answer.headers['content-type']) === 'text/html'

/** The message that stops the run, or undefined when the probes look right. */
export function misfitOf(answered: readonly Answered[], place: Place, api: ApiCredential): string | undefined {
  for (const { probe, answer } of answered) {
    const misfit = probe.misfits?.find((m) => m.status === answer.status)
    if (misfit !== undefined) return `${probe.id}: ${fill(misfit.fix, place)}`
  }
  const withCredential = answered.filter(({ probe }) => probe.credential === 'api')
  const refused = withCredential.filter(({ answer }) => answer.status === 401).length
  if (refused >= 2 && !withCredential.some(({ answer }) => answer.status >= 200 && answer.status < 300)) {
    return `the team accepted the ${api === 'token' ? 'access token' : 'key'} on no probe and answered 401 to ${refused}: ${CREDENTIAL_FIX[api]}`
  }
  if (answered.length >= 2 && answered.every(({ answer }) => isRedirect(answer))) {
    const location = answered[0]?.answer.headers.location ?? ''
    return `the team redirected every probe${location === '' ? '' : ` (to ${withoutQuery(location)})`}, as a sign-in page does: --target must be the team's API address, e.g. https://acme.eu-1.celonis.cloud`
  }
  if (answered.length >= 2 && answered.every(({ answer }) => isHtml(answer))) {
    return "the team answered an HTML page to every probe: --target must be the team's API address, e.g. https://acme.eu-1.celonis.cloud, not a page in front of it"
  }
  return undefined
}

/** A location without its query, which may carry state or a return address. */
function withoutQuery(location: string): string {
  const at = location.search(/[?#]/)
  return at === -1 ? location : location.slice(0, at)
}

/** The fix with the team's values for `{name}` placeholders. */
function fill(text: string, place: Place): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => place[name] ?? whole)
}
