// Run by .ci/run on its own in the msw 3 consumer: the test must FAIL, because its request went to
// another origin (a typo in the host), even though it swallows the network error itself.
import { it } from 'vitest'
import { useEmulator } from 'svc-mock/vitest'

await useEmulator()

it('sends a stray request', async () => {
  await fetch('https://acme.svc-mock.tset/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/versions').catch(() => undefined)
})
