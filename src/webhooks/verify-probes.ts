/**
 * What `svc-mock verify` sends to check inbound webhooks against the user's team: with `--webhook
 * URL` and `--allow-writes` only (a payload the webhook accepted would run its flow), an empty JSON
 * object, which a data structure with a required field refuses. Also svc-mock's side: the default
 * fixtures' webhook that stands for the user's.
 */
import type { FixtureRecords } from '../kernel/domain.js'
import type { VerifyProbe } from '../kernel/verify-probe.js'
import { HOOK_PATH } from './constants.js'
import type { DataStructure } from './model.js'
import { webhooksSection } from './service.js'

/** The probes of inbound webhooks. */
export const WEBHOOKS_VERIFY_PROBES: readonly VerifyProbe[] = [
  {
    id: 'webhook.refused-payload',
    api: 'inbound webhooks',
    title: 'an empty JSON object, which its data structure refuses',
    address: 'webhook',
    method: 'POST',
    path: '{webhook}',
    json: {},
    credential: 'none',
    writes: true,
    compare: {
      // The field names and how many are missing are the team's own data structure.
      text: [
        { find: 'for \\d+ parameter\\(s\\)', as: 'for {n} parameter(s)' },
        { find: "(Missing value of required parameter '[^']*'\\.\\s*)+", as: "Missing value of required parameter '{name}'." },
      ],
    },
    misfits: [
      { status: 200, fix: 'the webhook of --webhook accepted an empty payload (its flow ran): name a webhook whose data structure has a required field' },
      { status: 410, fix: 'the target has no webhook at the address of --webhook (410): check it' },
      { status: 401, fix: 'the webhook of --webhook is secured for public use (401): verify sends webhooks no credential, so name an unsecured one' },
    ],
  },
]

const hasRequired = (structure: DataStructure | null | undefined): boolean => (structure ?? []).some((field) => field.required === true)

/** The path of the fixtures' first active, unsecured webhook whose data structure has a required field (the default: `/hooks/orders`). */
export function webhooksEquivalent(fixtures: FixtureRecords): string | undefined {
  const hook = fixtures
    .of(webhooksSection)
    .map((w) => w.value)
    .find((w) => hasRequired(w.dataStructure) && w.learning !== true && w.secured !== true && w.flow?.active !== false && w.flow?.response == null)
  return hook === undefined ? undefined : HOOK_PATH.replace(':token', hook.id ?? hook.name)
}
